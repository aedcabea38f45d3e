/** What the sandbox holds, by CloudFormation type, as its admin inventory lists it. */
export interface LiveResource {
  type: string;
  id: string;
}

/** Every resource the sandbox holds, except cdkd's own state and asset buckets. */
/** What `cdkd bootstrap` makes (its buckets, its deploy and lookup roles): no stack's resources. */
function bootstrapped(service: string, id: string): boolean {
  if (service === 's3') return id.startsWith('cdkd-');
  return service === 'iam' && /^(cdkd-.+-deploy-role|cdk-.+-lookup-role)-\d{12}-/.test(id);
}

export async function liveResources(sandboxUrl: string): Promise<LiveResource[]> {
  const response = await fetch(`${sandboxUrl}/_sandbox/inventory`);
  const inventory = (await response.json()) as Record<string, Record<string, Array<{ id: string }>>>;
  return Object.entries(inventory)
    .flatMap(([service, types]) =>
      Object.entries(types).flatMap(([type, entries]) =>
        entries.filter((entry) => !bootstrapped(service, entry.id)).map((entry) => ({ type, id: entry.id })),
      ),
    )
    .sort((a, b) => `${a.type} ${a.id}`.localeCompare(`${b.type} ${b.id}`));
}

/**
 * Whether a state record names a live resource. Services list some resources
 * by a part of what Ref returns (SQS lists a queue by name; its Ref is the URL).
 */
export function isSameResource(record: { type: string; physicalId: string }, live: LiveResource): boolean {
  if (record.type !== live.type) return false;
  return (
    record.physicalId === live.id ||
    record.physicalId.endsWith(`/${live.id}`) ||
    live.id.endsWith(`/${record.physicalId}`)
  );
}

/** Types IAM holds as part of a principal, so the sandbox lists no resource for them. */
const PART_OF_PARENT = new Set(['AWS::IAM::Policy']);

/**
 * Records and live resources paired one to one: what state names but the cloud
 * lacks, and what the cloud holds that state does not name.
 */
export function unmatched(
  records: ReadonlyArray<{ type: string; physicalId: string }>,
  live: readonly LiveResource[],
): { missing: string[]; extra: string[] } {
  const remaining = [...live];
  const missing: string[] = [];
  for (const record of records.filter((r) => !PART_OF_PARENT.has(r.type))) {
    const index = remaining.findIndex((resource) => isSameResource(record, resource));
    if (index < 0) missing.push(`${record.type} ${record.physicalId}`);
    else remaining.splice(index, 1);
  }
  return { missing, extra: remaining.map((resource) => `${resource.type} ${resource.id}`) };
}

/** What the sandbox holds but the log groups Lambda made for the functions it ran: no stack owns them, as on AWS. */
export async function stackResources(sandboxUrl: string): Promise<LiveResource[]> {
  return (await liveResources(sandboxUrl)).filter(
    (resource) => !(resource.type === 'AWS::Logs::LogGroup' && resource.id.startsWith('/aws/lambda/')),
  );
}

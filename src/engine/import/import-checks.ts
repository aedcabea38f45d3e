import { CdkdError, messageOf } from '../../errors.js';
import type { ProviderKind } from '../../providers/index.js';
import { BUCKET_ID_TYPES } from '../../providers/id-shapes.js';
import { cdkdBucketRole } from '../../state/bucket-names.js';
import type { StateDocument, StackRef } from '../../state/index.js';
import type { EngineContext } from '../engine-context.js';
import { duplicateChoice, idShapeRefusal, sameResource, type NamedResource } from './import-rules.js';

/** One resource `cdkd import` is asked to adopt, with its template type. */
export interface WantedImport extends NamedResource {
  logicalId: string;
}

/** A record elsewhere under the state prefix that already holds a wanted resource. */
export interface ImportHolder {
  stackName: string;
  region: string;
  logicalId: string;
  /** The old copy of a replaced resource, kept in state until a later deploy deletes it. */
  pendingDelete?: true;
}

/** Refuses one resource given under two logical ids in one command (issue: the records would fight). */
export function refuseDuplicateResources(stackName: string, wanted: readonly WantedImport[]): void {
  const pair = duplicateChoice(wanted);
  if (!pair) return;
  const [earlier, later] = pair;
  throw new CdkdError(
    'IMPORT_DUPLICATE_RESOURCE',
    `--resource gives ${later.physicalId} (${later.type}) for both ${earlier.logicalId} and ${later.logicalId} of stack ${stackName}: one resource can be imported under one logical id only.`,
    { hint: 'Give each resource once, under the logical id that should manage it.' },
  );
}

/** Refuses a resource this stack already records, or keeps as an old copy, under another logical id. */
export function refuseRecordedInStack(
  stackName: string,
  document: StateDocument,
  wanted: WantedImport,
): void {
  const holder = holdersIn(document, document.region, wanted)[0];
  if (!holder) return;
  const as = holder.pendingDelete
    ? `as the old copy of ${holder.logicalId} that its next deploy deletes`
    : `as ${holder.logicalId}`;
  throw new CdkdError(
    'IMPORT_ALREADY_MANAGED',
    `${wanted.physicalId} (${wanted.type}) is already recorded in stack ${stackName} ${as}; it cannot also be imported as ${wanted.logicalId}.`,
    { hint: 'Import each resource under one logical id only.' },
  );
}

/** Refuses an id that cannot be one of the type's (a queue's name where its URL is the id), before it is read. */
export function refuseIdShape(
  wanted: WantedImport,
  provisionedBy: ProviderKind,
  where: { accountId: string },
): void {
  const refusal = idShapeRefusal(wanted.type, provisionedBy, wanted.physicalId, {
    region: wanted.region,
    accountId: where.accountId,
  });
  if (!refusal) return;
  const example = refusal.example
    ? `Give it as --resource ${wanted.logicalId}=${refusal.example}${refusal.tip ? ` (${refusal.tip})` : ''}.`
    : undefined;
  throw new CdkdError(
    'IMPORT_ID_INVALID',
    `Cannot import ${wanted.physicalId} as ${wanted.logicalId} (${wanted.type}): ${refusal.problem}; cdkd identifies ${wanted.type} resources by ${refusal.expected}.`,
    { hint: example ?? `Give the id of the ${wanted.type} as --resource ${wanted.logicalId}=<id>.` },
  );
}

/** cdkd's own state and asset buckets are never a stack's resource, whatever --force says. */
export function refuseCdkdBucket(
  stackName: string,
  wanted: WantedImport,
  own: { stateBucket: string; accountId: string },
): void {
  if (!BUCKET_ID_TYPES.has(wanted.type)) return;
  const role = cdkdBucketRole(wanted.physicalId, own);
  if (role === undefined) return;
  throw new CdkdError(
    'IMPORT_CDKD_BUCKET',
    `${wanted.physicalId} is cdkd's own ${role} bucket: cdkd import never adopts it (${wanted.logicalId}, ${wanted.type}) into stack ${stackName}, since a deploy would change its settings and a destroy would delete it.`,
    {
      hint: `Import another bucket as ${wanted.logicalId}; cdkd's state and asset buckets belong to cdkd bootstrap.`,
    },
  );
}

/**
 * The records of every other stack under the state prefix (nested stacks and other regions
 * included) that hold a wanted resource, and the stacks whose state could not be read.
 */
export async function holdersElsewhere(
  engine: EngineContext,
  self: StackRef,
  wanted: readonly WantedImport[],
): Promise<{ holders: Map<WantedImport, ImportHolder[]>; unreadable: string[] }> {
  const holders = new Map<WantedImport, ImportHolder[]>();
  const everywhere = await engine.backend.store.listEverywhere();
  const unreadable = everywhere.legacy.map(
    (name) => `${name} (a legacy state document that names no region)`,
  );
  const others = everywhere.stacks.filter(
    (ref) => ref.stackName !== self.stackName || ref.region !== self.region,
  );
  for (const ref of others) {
    let document: StateDocument | undefined;
    try {
      document = (await engine.backend.store.read(ref))?.document;
    } catch (error) {
      unreadable.push(`${ref.stackName} (${ref.region}): ${messageOf(error)}`);
      continue;
    }
    if (!document) continue;
    for (const one of wanted) {
      const found = holdersIn(document, ref.region, one);
      if (found.length > 0) holders.set(one, [...(holders.get(one) ?? []), ...found]);
    }
  }
  return { holders, unreadable };
}

/** The records and kept old copies of `document` that hold `wanted`. */
function holdersIn(document: StateDocument, region: string, wanted: WantedImport): ImportHolder[] {
  const holds = (record: StateDocument['resources'][string]) =>
    sameResource({ ...record, region: record.region ?? region }, wanted);
  const at = { stackName: document.stackName, region };
  return [
    ...Object.entries(document.resources)
      .filter(([, record]) => holds(record))
      .map(([logicalId]) => ({ ...at, logicalId })),
    ...document.pendingDeletes
      .filter((entry) => holds(entry.record))
      .map((entry) => ({ ...at, logicalId: entry.logicalId, pendingDelete: true as const })),
  ];
}

/** Refuses a resource another stack manages, unless --force; with it, returns who else holds each one. */
export function refuseHeldElsewhere(
  stackName: string,
  found: { holders: Map<WantedImport, ImportHolder[]>; unreadable: string[] },
  force: boolean,
): Map<string, ImportHolder[]> {
  if (found.unreadable.length > 0 && !force) {
    throw new CdkdError(
      'IMPORT_OWNER_UNKNOWN',
      `Cannot tell whether another stack already manages what ${stackName} would import: the state of ${found.unreadable.join('; ')} could not be read.`,
      {
        hint: 'Repair or remove that state document and run cdkd import again, or pass --force to import regardless (two stacks may then manage one resource: destroying either deletes it).',
      },
    );
  }
  const shared = new Map<string, ImportHolder[]>();
  for (const [wanted, holders] of found.holders) {
    if (!force) throw heldElsewhere(stackName, wanted, holders[0]!);
    shared.set(wanted.logicalId, holders);
  }
  return shared;
}

function heldElsewhere(stackName: string, wanted: WantedImport, holder: ImportHolder): CdkdError {
  const as = holder.pendingDelete
    ? `keeps it as the old copy of ${holder.logicalId}, which its next deploy deletes`
    : `manages it as ${holder.logicalId}`;
  return new CdkdError(
    'IMPORT_MANAGED_ELSEWHERE',
    `${wanted.physicalId} (${wanted.type}) belongs to another cdkd stack: ${holder.stackName} (${holder.region}) ${as}. Importing it into ${stackName} as ${wanted.logicalId} would leave two stacks managing one resource, and destroying either would delete it.`,
    {
      hint: `Hand it over first with cdkd state orphan ${holder.stackName} ${holder.logicalId} --region ${holder.region}, then import it; or pass --force to manage it from both stacks anyway (destroying either then deletes it).`,
    },
  );
}

/** What `--force` prints for a resource another stack also manages. */
export function sharedWarning(
  stackName: string,
  logicalId: string,
  holders: readonly ImportHolder[],
): string {
  const others = holders.map((h) => `${h.stackName} (${h.region}) ${h.logicalId}`).join(', ');
  return `--force: ${stackName} ${logicalId} is now managed by two stacks (also by ${others}): destroying either deletes it, and each deploy may undo the other's changes. End it with cdkd state orphan in one of them.`;
}

/**
 * Spec 002 "Children deleted with the target": resources that live inside another one and go
 * with it when it is deleted, keyed by the child's type and the property naming its parent.
 * `child`: one parent, gone with it. `policy`: written onto several parents, written again in
 * place. `attached`: survives the parent in AWS but is detached before an IAM principal is
 * deleted, so it is attached again once the principal is re-created.
 */
export type ChildRole = 'child' | 'policy' | 'attached';

export interface ChildLink {
  /** The child's property naming the parent (a name, an ARN or a URL, or a list of them). */
  property: string;
  role: ChildRole;
  parentTypes: readonly string[];
  /**
   * The list property an attached resource is trimmed in, when that is not `property`: a
   * UserToGroupAddition on a re-created group keeps no members.
   */
  trims?: string;
}

const FUNCTION = ['AWS::Lambda::Function'];
const child = (property: string, parentTypes: readonly string[]): ChildLink => ({
  property,
  role: 'child',
  parentTypes,
});
const PRINCIPALS = [
  { property: 'Roles', parentTypes: ['AWS::IAM::Role'] },
  { property: 'Users', parentTypes: ['AWS::IAM::User'] },
  { property: 'Groups', parentTypes: ['AWS::IAM::Group'] },
] as const;

/** A Lambda function URL is not handled this way (spec 002), so it has no row. */
export const CHILD_LINKS: Readonly<Record<string, readonly ChildLink[]>> = {
  'AWS::Lambda::Permission': [child('FunctionName', FUNCTION)],
  'AWS::Lambda::Version': [child('FunctionName', FUNCTION)],
  'AWS::Lambda::Alias': [child('FunctionName', FUNCTION)],
  'AWS::Lambda::EventInvokeConfig': [child('FunctionName', FUNCTION)],
  'AWS::SNS::Subscription': [child('TopicArn', ['AWS::SNS::Topic'])],
  'AWS::SNS::TopicPolicy': [{ property: 'Topics', role: 'policy', parentTypes: ['AWS::SNS::Topic'] }],
  'AWS::SQS::QueuePolicy': [{ property: 'Queues', role: 'policy', parentTypes: ['AWS::SQS::Queue'] }],
  'AWS::S3::BucketPolicy': [child('Bucket', ['AWS::S3::Bucket'])],
  'AWS::Logs::LogStream': [child('LogGroupName', ['AWS::Logs::LogGroup'])],
  'AWS::Logs::MetricFilter': [child('LogGroupName', ['AWS::Logs::LogGroup'])],
  'AWS::Logs::SubscriptionFilter': [child('LogGroupName', ['AWS::Logs::LogGroup'])],
  'AWS::IAM::Policy': PRINCIPALS.map((p) => ({ ...p, role: 'policy' as const })),
  'AWS::IAM::RolePolicy': [child('RoleName', ['AWS::IAM::Role'])],
  'AWS::IAM::UserPolicy': [child('UserName', ['AWS::IAM::User'])],
  'AWS::IAM::GroupPolicy': [child('GroupName', ['AWS::IAM::Group'])],
  'AWS::IAM::ManagedPolicy': PRINCIPALS.map((p) => ({ ...p, role: 'attached' as const })),
  'AWS::IAM::InstanceProfile': [{ property: 'Roles', role: 'attached', parentTypes: ['AWS::IAM::Role'] }],
  'AWS::IAM::User': [{ property: 'Groups', role: 'attached', parentTypes: ['AWS::IAM::Group'] }],
  'AWS::IAM::UserToGroupAddition': [
    { property: 'GroupName', role: 'attached', parentTypes: ['AWS::IAM::Group'], trims: 'Users' },
    { property: 'Users', role: 'attached', parentTypes: ['AWS::IAM::User'] },
  ],
};

/** The links of `childType` through which a resource of `parentType` can be its parent. */
export function linksTo(childType: string, parentType: string): ChildLink[] {
  return (CHILD_LINKS[childType] ?? []).filter((link) => link.parentTypes.includes(parentType));
}

/** Whether `childType`'s `property` names a parent of `parentType`. */
export function isChildLink(childType: string, property: string, parentType: string): boolean {
  return linksTo(childType, parentType).some((link) => link.property === property);
}

/** The values a recorded property names: one, or each entry of a list. */
function named(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** Whether a recorded child's properties name one of the parent's identifiers through `link`. */
function namesParent(
  properties: Readonly<Record<string, unknown>>,
  link: ChildLink,
  ids: ReadonlySet<string>,
) {
  return named(properties[link.property]).some((v) => typeof v === 'string' && ids.has(v));
}

/** What becomes of a child's state record once its parent is deleted to be re-created. */
export type RecordOnParentLoss =
  { kind: 'keep' } | { kind: 'drop' } | { kind: 'trim'; properties: Record<string, unknown> };

export interface ParentLossInput {
  /** The child's type and its recorded properties. */
  type: string;
  properties: Readonly<Record<string, unknown>>;
  /** The deleted parent's type and the identifiers a child may name it by (physical id, ARN). */
  parentType: string;
  parentIds: ReadonlySet<string>;
}

/**
 * Spec 002, "If the deploy fails after re-creating the parent and before restoring such a
 * child", decided the moment the parent is deleted, so a failure at any later point leaves
 * the records right: a child AWS deleted is dropped (the next deploy creates it again); a
 * policy that also names other parents keeps its record minus the deleted one; an attached
 * resource's record is never dropped, only trimmed. A child whose record does not name the
 * parent (one the deploy moves onto it from another parent) is kept: it is replaced as usual.
 */
export function recordOnParentLoss(input: ParentLossInput): RecordOnParentLoss {
  const links = linksTo(input.type, input.parentType).filter((link) =>
    namesParent(input.properties, link, input.parentIds),
  );
  if (links.length === 0) return { kind: 'keep' };
  const properties: Record<string, unknown> = { ...input.properties };
  for (const link of links) {
    if (link.role === 'child') return { kind: 'drop' };
    if (link.trims !== undefined) properties[link.trims] = [];
    else
      properties[link.property] = named(properties[link.property]).filter(
        (v) => !(typeof v === 'string' && input.parentIds.has(v)),
      );
  }
  const isPolicy = links.every((link) => link.role === 'policy');
  const remaining = (CHILD_LINKS[input.type] ?? []).some(
    (link) => link.trims === undefined && named(properties[link.property]).length > 0,
  );
  if (isPolicy && !remaining) return { kind: 'drop' };
  return { kind: 'trim', properties };
}

/** The recreate flag that can write a resource of this route again, if there is one. */
export type RewriteFlag = '--recreate-via-cc-api' | '--recreate-via-sdk-provider';

export interface FailedRestoreInput {
  provisionedBy: 'sdk' | 'cc-api';
  /** Whether Cloud Control can manage the type. */
  cloudControlHandles: boolean;
  /** Whether an SDK provider is registered for the type. */
  sdkProviderHandles: boolean;
}

export type RecordOnFailedRestore = { kind: 'keep'; flag: RewriteFlag } | { kind: 'drop' };

/**
 * Spec 002: a child whose own restore was attempted and failed may be in AWS after all. It
 * keeps its record when a --recreate-via-* flag can write it again (the other layer manages
 * the type); otherwise the record is dropped and the warning says the write may be there.
 */
export function recordOnFailedRestore(input: FailedRestoreInput): RecordOnFailedRestore {
  if (input.provisionedBy === 'sdk' && input.cloudControlHandles)
    return { kind: 'keep', flag: '--recreate-via-cc-api' };
  if (input.provisionedBy === 'cc-api' && input.sdkProviderHandles)
    return { kind: 'keep', flag: '--recreate-via-sdk-provider' };
  return { kind: 'drop' };
}

/** The warning for a failed restore, per its record's fate. */
export function failedRestoreWarning(
  logicalId: string,
  parent: string,
  decision: RecordOnFailedRestore,
): string {
  return decision.kind === 'keep'
    ? `${logicalId}: restoring it on the re-created ${parent} failed, and it may be there after all; its record is kept, so the next deploy sees no change: deploy with ${decision.flag} ${logicalId} to write it again.`
    : `${logicalId}: restoring it on the re-created ${parent} failed; its record is dropped, so the next deploy creates it again. The write may still be on ${parent}: if ${logicalId} leaves the template before the next deploy, remove it from ${parent} by hand.`;
}

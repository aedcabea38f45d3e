/**
 * Spec 002 "Name collisions": what a replacement does when its create collides on a name.
 * The lookup and the proof that the old resource holds the name are live reads the engine
 * makes; this is the decision over their answers. Every refusal deletes nothing.
 */
export interface CollisionInput {
  oldType: string;
  newType: string;
  updateReplacePolicy?: string;
  /** The --replace flag. */
  replace: boolean;
  /** The engine's proof that the old resource holds the name the create sent. */
  oldHoldsName: boolean | 'unknown';
  /** Both custom resource types, and the handler returned the old physical id. */
  equalCustomResourceId?: boolean;
}

export type CollisionDecision =
  | { action: 'delete-old-first' }
  | {
      action: 'refuse';
      code: 'NAMED_REPLACEMENT_COLLISION' | 'NAMED_REPLACEMENT_IDEMPOTENT_CREATE';
      /** Whether the message may suggest --replace (never when --replace would refuse too). */
      adviseReplace: boolean;
      reason: string;
    };

/** Types that share one name space: --replace deletes first only within one group. */
const SHARED_NAME_SPACES: readonly (readonly string[])[] = [
  ['AWS::RDS::DBCluster', 'AWS::DocDB::DBCluster', 'AWS::Neptune::DBCluster'],
  ['AWS::RDS::DBInstance', 'AWS::DocDB::DBInstance', 'AWS::Neptune::DBInstance'],
  ['AWS::RDS::DBSubnetGroup', 'AWS::DocDB::DBSubnetGroup', 'AWS::Neptune::DBSubnetGroup'],
  ['AWS::DynamoDB::Table', 'AWS::DynamoDB::GlobalTable'],
];

export function shareNameSpace(a: string, b: string): boolean {
  return a === b || SHARED_NAME_SPACES.some((group) => group.includes(a) && group.includes(b));
}

/**
 * The proof comes before the flag: a holder --replace could not free is refused without
 * advising --replace, which would refuse the same way (spec 002, "How --replace proves the
 * old resource holds the name").
 */
export function decideNameCollision(input: CollisionInput): CollisionDecision {
  const code = input.equalCustomResourceId
    ? 'NAMED_REPLACEMENT_IDEMPOTENT_CREATE'
    : 'NAMED_REPLACEMENT_COLLISION';
  const refuse = (adviseReplace: boolean, reason: string): CollisionDecision => ({
    action: 'refuse',
    code,
    adviseReplace,
    reason,
  });
  if (input.updateReplacePolicy === 'Retain') {
    return refuse(false, 'UpdateReplacePolicy: Retain keeps the old resource, which keeps the name');
  }
  // The custom resource handler picked the same id: the old resource is the existing one.
  if (input.equalCustomResourceId) {
    return input.replace
      ? { action: 'delete-old-first' }
      : refuse(true, 'the handler returned the old resource, which a create-first replacement would delete');
  }
  if (!shareNameSpace(input.oldType, input.newType)) {
    return refuse(false, `${input.oldType} and ${input.newType} do not share a name space`);
  }
  if (input.oldHoldsName !== true) {
    return refuse(false, 'the old resource is not proven to hold the name');
  }
  if (!input.replace) return refuse(true, 'the old resource holds the name');
  return { action: 'delete-old-first' };
}

/** The values CloudFormation accepts for DeletionPolicy and UpdateReplacePolicy. */
export const RESOURCE_POLICIES: readonly string[] = ['Delete', 'Retain', 'RetainExceptOnCreate', 'Snapshot'];

/**
 * Whether deleting the resource (a destroy, a removal, the old copy of a
 * replacement) leaves it in AWS. cdkd takes no snapshots, so Snapshot keeps it.
 */
export function keepsResource(policy: string | undefined): boolean {
  return policy === 'Retain' || policy === 'RetainExceptOnCreate' || policy === 'Snapshot';
}

/**
 * Whether rolling back the create that made the resource leaves it in AWS:
 * RetainExceptOnCreate exists so that such a resource is deleted, as CloudFormation does.
 */
export function keepsOnRollbackOfCreate(policy: string | undefined): boolean {
  return policy === 'Retain' || policy === 'Snapshot';
}

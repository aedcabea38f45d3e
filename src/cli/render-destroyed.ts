import type { DestroyedStack } from '../toolkit/index.js';

/** What `destroy` and `state destroy` print for each stack. */
export function writeDestroyed(result: DestroyedStack): void {
  if (result.otherAccount !== undefined)
    process.stdout.write(
      `${result.stackName}: nothing recorded, nothing to destroy (the stack is for account ${result.otherAccount}; use its credentials to destroy what was deployed there).\n`,
    );
  else if (!result.found)
    process.stdout.write(`${result.stackName}: nothing recorded, nothing to destroy.\n`);
  else process.stdout.write(`${result.stackName}: destroyed (${result.deleted.length} resources deleted).\n`);
  for (const logicalId of result.retained) {
    process.stdout.write(`  ${logicalId} kept in AWS by its DeletionPolicy; no longer tracked by cdkd.\n`);
  }
  for (const resource of result.orphaned) {
    process.stdout.write(
      `  ${resource.logicalId} (${resource.type}) ${resource.physicalId} orphaned (--orphan): left in AWS as it is, no longer tracked by cdkd; delete it by hand once it can be.\n`,
    );
  }
}

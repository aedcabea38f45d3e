import type { DestroyedStack } from '../../toolkit/index.js';

/** What `destroy` and `state destroy` print for each stack. */
export function writeDestroyed(
  result: DestroyedStack,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): void {
  if (!result.found) write(`${result.stackName}: nothing recorded, nothing to destroy.\n`);
  else write(`${result.stackName}: destroyed (${result.deleted.length} resources deleted).\n`);
  for (const logicalId of result.retained) {
    write(`  ${logicalId} kept in AWS by its DeletionPolicy; no longer tracked by cdkd.\n`);
  }
  for (const resource of result.orphaned) {
    write(
      `  ${resource.logicalId} (${resource.type}) ${resource.physicalId} orphaned (--orphan): left in AWS as it is, no longer tracked by cdkd; delete it by hand once it can be.\n`,
    );
  }
}

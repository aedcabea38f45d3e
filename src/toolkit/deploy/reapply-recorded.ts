import type { Engine, StackIdentity } from '../../engine/index.js';
import type { ResourceDrift } from '../../messages/index.js';
import { note, warn, type ToolkitIo } from '../io.js';

/**
 * `deploy --force`: after the stack's ordinary deploy (a no-op when nothing changed), every
 * recorded resource is read live and what AWS holds apart from what cdkd applied is written
 * back, through the same journaled revert as `cdkd drift --revert`. A dry run only says what
 * it would write. A resource AWS no longer holds is named, not re-created: the record may be
 * what is wrong, and a person decides (as `cdkd drift` leaves it).
 */
export async function reapplyRecorded(
  engine: Engine,
  stack: StackIdentity,
  options: ToolkitIo & { dryRun: boolean; concurrency: number; signal?: AbortSignal },
): Promise<void> {
  const result = await engine.drift(stack, {
    mode: options.dryRun ? 'detect' : 'revert',
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // A dry run of a stack never deployed has no record to hold against AWS.
  if (!result.found) return;
  const changed = result.drifted.filter((resource) => !resource.missing);
  for (const resource of result.drifted.filter((resource) => resource.missing)) {
    warn(
      options,
      `--force: ${resource.logicalId} (${resource.type}) ${resource.physicalId} no longer exists in AWS; it was not re-created (see cdkd drift)`,
      stack.stackName,
    );
  }
  if (changed.length === 0) {
    note(options, `${stack.stackName}: --force found every resource as recorded; nothing to re-apply.`);
    return;
  }
  const verb = options.dryRun ? 'would re-apply' : 're-applied';
  for (const resource of changed) note(options, `${stack.stackName}: --force ${verb} ${describe(resource)}.`);
}

function describe(resource: ResourceDrift): string {
  const properties = resource.properties.map((drift) => drift.property).join(', ');
  return `${resource.logicalId} (${resource.type}): ${properties}`;
}

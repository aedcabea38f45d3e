import type { CheckedStack } from '../../assembly/index.js';
import { isPlainObject } from '../../template/model.js';
import type { Session } from '../session/session.js';
import { note, type ToolkitIo } from '../io.js';

/** A template whose Resources section is absent or empty: CloudFormation refuses it. */
export function definesNoResources(template: unknown): boolean {
  if (!isPlainObject(template)) return false;
  const resources = template.Resources;
  return resources === undefined || (isPlainObject(resources) && Object.keys(resources).length === 0);
}

/**
 * The stacks a deploy, a dry run or a diff goes on with: as the CDK CLI does, a stack that
 * defines no resources and was never deployed (no state, no rollback journal) is skipped with
 * a note. One that was deployed is kept, so its empty template is refused as CloudFormation
 * would (removing every resource is `cdkd destroy`'s job).
 */
export async function withoutNeverDeployedEmptyStacks(
  sessionOf: (stack: CheckedStack) => Session,
  stacks: readonly CheckedStack[],
  regionOf: (stack: CheckedStack) => string,
  io: ToolkitIo,
): Promise<CheckedStack[]> {
  const kept: CheckedStack[] = [];
  for (const entry of stacks) {
    if (
      definesNoResources(entry.stack.template) &&
      !(await everDeployed(sessionOf(entry), entry, regionOf(entry)))
    ) {
      note(io, `${entry.stack.displayName}: defines no resources and was never deployed; skipped.`);
      continue;
    }
    kept.push(entry);
  }
  return kept;
}

/** A state document or a rollback journal for the stack; one that cannot be read counts as deployed. */
async function everDeployed(session: Session, entry: CheckedStack, region: string): Promise<boolean> {
  const backend = await session.stateBackend();
  const ref = { stackName: entry.stack.stackName, region };
  try {
    return (await backend.store.read(ref)) !== undefined || (await backend.journals.read(ref)) !== undefined;
  } catch {
    return true;
  }
}

import { CdkdError } from '../../errors.js';
import type { StackRef, StateBackend } from '../../state/index.js';

/**
 * Refuses to destroy a stack whose last deploy recorded termination protection (the app's
 * `terminationProtection: true`), as CloudFormation refuses DeleteStack, before anything is
 * asked or touched. `declared` names the selected stacks whose app turns it on now: a
 * deployed one is refused even when its deploy predates the recorded setting.
 */
export async function refuseProtectedStacks(
  backend: StateBackend,
  refs: readonly StackRef[],
  declared: ReadonlySet<string> = new Set(),
): Promise<void> {
  const protectedStacks: string[] = [];
  for (const ref of refs) {
    const state = await backend.store.read(ref);
    if (state && (declared.has(ref.stackName) || state.document.terminationProtection === true))
      protectedStacks.push(`${ref.stackName} (${ref.region})`);
  }
  if (protectedStacks.length === 0) return;
  const one = protectedStacks.length === 1;
  throw new CdkdError(
    'STACK_TERMINATION_PROTECTED',
    `${one ? 'Stack' : 'Stacks'} ${protectedStacks.join(', ')} ${one ? 'has' : 'have'} termination protection on; nothing was destroyed.`,
    {
      hint: 'Set terminationProtection to false in the app and deploy, then destroy.',
    },
  );
}

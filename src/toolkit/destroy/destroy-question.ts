import { CdkdError } from '../../errors.js';
import { ioQuestion } from '../../messages/index.js';
import type { ToolkitIo } from '../io.js';

/**
 * Asks before a destroy deletes anything (CDKD_Q4000), once the stacks are known to exist and
 * every `--orphan` id is recorded, so a typo is refused rather than confirmed. A "no", or a
 * host that takes the default, cancels with nothing changed.
 */
export async function confirmDestroy(
  { io, command }: ToolkitIo,
  target: { stacks: readonly string[]; fromState: boolean; orphan: readonly string[] },
): Promise<void> {
  const what = target.fromState
    ? `${target.stacks.join(', ')} from its state? This deletes its resources`
    : `${target.stacks.join(', ')}? This deletes their resources`;
  const leaving =
    target.orphan.length > 0 ? `, except ${target.orphan.join(', ')}, left in AWS and no longer tracked` : '';
  const data = { stacks: [...target.stacks], orphan: [...target.orphan] };
  if (!(await io.ask(ioQuestion(command, 'CDKD_Q4000', `Destroy ${what}${leaving}.`, data, false)))) {
    throw new CdkdError('CANCELLED', 'Cancelled; nothing was changed.');
  }
}

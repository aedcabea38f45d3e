import { CdkdError } from '../errors.js';
import { findLocalFunction } from './function-target.js';
import { LocalRunner, type LocalInvokeOutcome, type LocalRunnerOptions } from './function-runner.js';

export type { LocalInvokeOutcome };

export interface LocalInvokeInput extends LocalRunnerOptions {
  /** `<stack>/<function>`. */
  target: string;
  /** The event, as JSON text. */
  event: string;
}

/**
 * `cdkd local invoke`: one invocation of a Node.js or Python function of the app on this
 * machine (or in its Lambda base image with `--container`), with the deployed function's
 * environment and role when its stack is deployed, else the template's environment.
 */
export async function localInvoke(input: LocalInvokeInput): Promise<LocalInvokeOutcome> {
  const fn = findLocalFunction(input.assembly, input.target);
  try {
    JSON.parse(input.event);
  } catch (cause) {
    throw new CdkdError('LOCAL_EVENT_INVALID', 'The event is not valid JSON.', {
      hint: 'Pass a JSON document with --event FILE or on stdin.',
      cause,
    });
  }
  const runner = new LocalRunner(input);
  try {
    return await runner.invoke(fn, input.event);
  } finally {
    runner.close();
  }
}

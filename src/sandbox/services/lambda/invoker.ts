import type { SandboxContext } from '../../service-module.js';

/**
 * Event invocations for other sandbox modules (SNS delivers to its Lambda subscribers), so
 * they never reach into the Lambda module. Unknown functions are dropped, as Lambda's
 * async delivery drops events for a function that is gone.
 */
export interface LambdaInvoker {
  /** Accepts an Event invocation of the function (ARN, qualified or not) with a JSON payload. */
  invokeAsync(functionArn: string, payload: string): Promise<void>;
}

const invokers = new WeakMap<SandboxContext, LambdaInvoker>();

/** The invoker of the sandbox the context belongs to; undefined when Lambda is not served. */
export function lambdaInvoker(context: SandboxContext): LambdaInvoker | undefined {
  return invokers.get(context);
}

export function exposeInvoker(context: SandboxContext, invoker: LambdaInvoker): void {
  invokers.set(context, invoker);
}

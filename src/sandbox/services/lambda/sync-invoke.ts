import { parseFunctionName } from './call.js';
import { resolveTarget } from './invoke-ops.js';
import { lambdaErrors } from './lambda-errors.js';
import type { FunctionRunner, InvokeResult } from './runtime/function-runner.js';
import type { LambdaStore } from './store.js';

/**
 * A RequestResponse invocation by ARN (qualified or not) for another part of the sandbox:
 * API Gateway's integrations and function URLs. Lambda's errors as Invoke raises them.
 */
export async function invokeByArn(
  store: LambdaStore,
  runner: FunctionRunner,
  functionArn: string,
  payload: string,
  requestId?: string,
): Promise<InvokeResult> {
  const { name, qualifier } = parseFunctionName(functionArn);
  const region = functionArn.startsWith('arn:') ? functionArn.split(':')[3]! : undefined;
  const record = region === undefined ? undefined : store.function(region, name);
  if (!record) throw lambdaErrors.functionNotFound(functionArn);
  if (Date.now() < record.activeAt) throw lambdaErrors.pending();
  const target = resolveTarget(record, qualifier);
  runner.check(target);
  return runner.invoke(target, payload, requestId === undefined ? {} : { requestId });
}

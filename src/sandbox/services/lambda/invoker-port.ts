import { randomUUID } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { deliverChecked } from '../../policy/delivery-check.js';
import type { DeliveryCaller, LambdaInvoker } from '../../ports/index.js';
import type { SandboxContext } from '../../service-module.js';
import type { AsyncInvocations } from './async-invocations.js';
import { parseFunctionName } from './call.js';
import { resolveTarget } from './invoke-ops.js';
import type { FunctionRecord } from './model.js';
import type { FunctionRunner } from './runtime/function-runner.js';
import type { LambdaStore } from './store.js';

/**
 * Lambda's invocations for other modules: a caller is checked against the resource policy
 * of the qualifier it names (the function's own for an unqualified ARN), as Lambda checks
 * `lambda:InvokeFunction`.
 */
export function lambdaInvokerPort(
  context: SandboxContext,
  store: LambdaStore,
  runner: FunctionRunner,
  queue: AsyncInvocations,
): LambdaInvoker {
  const find = (functionArn: string) => {
    const { name, qualifier } = parseFunctionName(functionArn);
    const region = functionArn.startsWith('arn:')
      ? (functionArn.split(':')[3] ?? context.region)
      : context.region;
    const record = store.function(region, name);
    return { record, qualifier, region, name };
  };
  const target = (
    functionArn: string,
    record: FunctionRecord | undefined,
    qualifier: string | undefined,
  ) => ({
    arn: functionArn,
    action: 'lambda:InvokeFunction',
    policy: record ? { Statement: record.policies[qualifier ?? ''] ?? [] } : undefined,
    exists: record !== undefined,
  });
  return {
    async invokeAsync(functionArn, payload, caller?: DeliveryCaller) {
      const { record, qualifier, region, name } = find(functionArn);
      return deliverChecked(context, caller, target(functionArn, record, qualifier), async () => {
        await queue.enqueue({
          requestId: randomUUID(),
          region,
          functionName: name,
          ...(qualifier !== undefined ? { qualifier } : {}),
          payload,
        });
      });
    },
    async invoke(functionArn, payload, caller?: DeliveryCaller) {
      const { record, qualifier } = find(functionArn);
      let result: Awaited<ReturnType<FunctionRunner['invoke']>> | undefined;
      let version = '$LATEST';
      let failure: SandboxError | undefined;
      const outcome = await deliverChecked(
        context,
        caller,
        target(functionArn, record, qualifier),
        async () => {
          try {
            const resolved = resolveTarget(record!, qualifier);
            version = resolved.version;
            result = await runner.invoke(resolved, payload, { requestId: randomUUID() });
          } catch (error) {
            if (!(error instanceof SandboxError)) throw error;
            failure = error;
          }
        },
      );
      if (!outcome.delivered) return outcome;
      if (failure) return { delivered: false, code: failure.code, message: failure.message };
      return {
        delivered: true,
        payload: result!.payload,
        ...(result!.functionError ? { functionError: result!.functionError } : {}),
        executedVersion: version,
      };
    },
  };
}

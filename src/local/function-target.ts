import type { CloudAssembly, StackArtifact } from '../assembly/index.js';
import { CdkdError } from '../errors.js';

export interface LocalFunction {
  stack: StackArtifact;
  logicalId: string;
  properties: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/**
 * The function `<stack>/<function>` names: the stack by display path (`Stage/Stack`) or
 * name, the function by logical ID or construct path under the stack (`Api/Handler`).
 */
export function findLocalFunction(assembly: CloudAssembly, target: string): LocalFunction {
  const candidates = assembly.stacks.filter(
    (stack) => target.startsWith(`${stack.displayName}/`) || target.startsWith(`${stack.stackName}/`),
  );
  if (candidates.length === 0) {
    throw new CdkdError('LOCAL_FUNCTION_NOT_FOUND', `No stack of the app matches "${target}".`, {
      hint: `Name it as <stack>/<function>; the stacks are: ${assembly.stacks.map((s) => s.displayName).join(', ') || 'none'}.`,
    });
  }
  for (const stack of candidates) {
    const prefix = target.startsWith(`${stack.displayName}/`) ? stack.displayName : stack.stackName;
    const rest = target.slice(prefix.length + 1);
    const resources = (stack.template.Resources ?? {}) as Record<string, Record<string, unknown>>;
    for (const [logicalId, resource] of Object.entries(resources)) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const metadata = (resource.Metadata ?? {}) as Record<string, unknown>;
      const path = metadata['aws:cdk:path'];
      const paths = [`${stack.displayName}/${rest}`, `${stack.displayName}/${rest}/Resource`];
      if (logicalId === rest || (typeof path === 'string' && paths.includes(path))) {
        return {
          stack,
          logicalId,
          properties: (resource.Properties ?? {}) as Record<string, unknown>,
          metadata,
        };
      }
    }
  }
  const functions = candidates.flatMap((stack) =>
    Object.entries((stack.template.Resources ?? {}) as Record<string, { Type?: unknown }>)
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
      .map(([id]) => `${stack.displayName}/${id}`),
  );
  throw new CdkdError('LOCAL_FUNCTION_NOT_FOUND', `No Lambda function of the app matches "${target}".`, {
    hint:
      functions.length > 0
        ? `The functions are: ${functions.join(', ')}.`
        : 'That stack has no Lambda function.',
  });
}

import type { Provider } from '../../providers/index.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import type { ProviderRouter } from '../../provider-calls/index.js';

/**
 * The write-only paths of a record's type, which no read returns: the SDK provider declares
 * its own; for Cloud Control, the registry schema's `writeOnlyProperties` (DescribeType, asked
 * once per type in the run), else the type's SDK provider's.
 */
export async function writeOnlyOf(
  engine: EngineContext,
  stack: StackIdentity,
  router: ProviderRouter,
  provider: Provider,
  type: string,
): Promise<readonly string[]> {
  if (provider.kind !== 'cc-api') return provider.writeOnlyProperties?.(type) ?? [];
  const answer = (await engine.registrySchemas.forTypes(stack, [type], 'drift')).get(type);
  if (answer?.kind === 'schema') return answer.schema.writeOnly;
  // The registry did not answer: what cdkd's SDK provider of the type knows of AWS's reads.
  return (await router.sdkProviderFor?.(type))?.writeOnlyProperties?.(type) ?? [];
}

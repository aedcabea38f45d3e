import type { Provider, ProviderContext, ResourceRequest } from '../../providers/index.js';

/** The journal's `name` of a create: what its provider says it sends, where known before the call. */
export function createdName(
  provider: Provider,
  request: ResourceRequest,
  context: ProviderContext,
): { name?: string } {
  const name = provider.createName?.(request, context);
  return name !== undefined ? { name } : {};
}

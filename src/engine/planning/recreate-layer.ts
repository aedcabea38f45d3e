import { CdkdError, isCdkdError } from '../../errors.js';
import { RECREATE_FLAGS, type Plan } from '../../plan/index.js';
import type { ProviderRouter } from '../../provider-calls/index.js';

const LAYER_NAMES = { sdk: 'the SDK provider', 'cc-api': 'Cloud Control' } as const;
const CANNOT = {
  sdk: (type: string) => `cdkd has no SDK provider for ${type}`,
  'cc-api': (type: string) => `Cloud Control cannot manage ${type}`,
} as const;

/**
 * A `--recreate-via-*` target whose type the named layer cannot make is refused at planning,
 * before anything is touched: cdkd has no SDK provider for it, or Cloud Control cannot address it.
 */
export async function refuseUnreachableRecreates(plan: Plan, router: ProviderRouter): Promise<void> {
  for (const op of plan.operations) {
    const layer = op.recreateVia;
    if (!layer) continue;
    let reachable: boolean;
    try {
      reachable = (await router.providerFor(op.type, layer)).handles(op.type);
    } catch (error) {
      if (!isCdkdError(error)) throw error;
      reachable = false;
    }
    if (reachable) continue;
    throw new CdkdError(
      'RECREATE_LAYER_UNAVAILABLE',
      `${op.logicalId} (${op.type}) cannot be re-created via ${LAYER_NAMES[layer]}: ${CANNOT[layer](op.type)}. Nothing was changed.`,
      { hint: `Drop ${RECREATE_FLAGS[layer]} ${op.logicalId}, or name the other layer's flag.` },
    );
  }
}

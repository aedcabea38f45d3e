import type { PlannedOperation, RecordedResource } from './types.js';

/** The layer `--recreate-via-cc-api` / `--recreate-via-sdk-provider` moves a resource to. */
export type RecreateLayer = NonNullable<RecordedResource['provisionedBy']>;

export const RECREATE_FLAGS: Readonly<Record<RecreateLayer, string>> = {
  'cc-api': '--recreate-via-cc-api',
  sdk: '--recreate-via-sdk-provider',
};

const LAYER_LABEL: Readonly<Record<RecreateLayer, string>> = { sdk: 'SDK', 'cc-api': 'CC' };
const LAYER_NAME: Readonly<Record<RecreateLayer, string>> = {
  sdk: 'the SDK provider',
  'cc-api': 'Cloud Control',
};

/** The provider move a prompt row shows, e.g. `SDK → CC`. */
export function routeLabel(from: RecreateLayer, to: RecreateLayer): string {
  return `${LAYER_LABEL[from]} → ${LAYER_LABEL[to]}`;
}

/**
 * A `--recreate-via-*` target against its record: a recorded resource is destroyed and
 * re-created on the named layer whatever its properties say; one not yet made is created
 * there, and one leaving the template is deleted as planned.
 */
export function applyRecreateVia(
  op: PlannedOperation,
  record: RecordedResource | undefined,
  layer: RecreateLayer | undefined,
): PlannedOperation {
  if (!layer || op.phase !== 'deploy') return op;
  if (!record) return { ...op, recreateVia: layer };
  const from = record.provisionedBy ?? 'sdk';
  const why = `re-created via ${LAYER_NAME[layer]} (${RECREATE_FLAGS[layer]})`;
  const changed = op.kind === 'update' || op.kind === 'replace' ? `${op.reason}; ` : '';
  return {
    ...op,
    kind: 'replace',
    recreateVia: layer,
    recreateFrom: from,
    reason: `${changed}${why}`,
  };
}

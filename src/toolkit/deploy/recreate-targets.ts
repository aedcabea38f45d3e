import type { CheckedStack } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import { RECREATE_FLAGS, type RecreateLayer } from '../../plan/index.js';
import { runLogicalIds, shownId } from '../stacks/routing-flags.js';

export interface RecreateFlags {
  /** `--recreate-via-cc-api <logicalId>`, repeatable. */
  ccApi: readonly string[];
  /** `--recreate-via-sdk-provider <logicalId>`, repeatable. */
  sdkProvider: readonly string[];
}

/**
 * The `--recreate-via-*` targets of a run, by logical id. Checked for the whole run before any
 * stack deploys (spec 002, as for --pin-cc-api): an id in no stack of the run is an error, since
 * the flag would otherwise do nothing silently; under --all an id is rightly absent from the
 * other stacks. An id named by both flags is an error too.
 */
export function recreateTargets(
  flags: RecreateFlags,
  stacks: readonly CheckedStack[],
): Record<string, RecreateLayer> | undefined {
  const named: Array<[string, RecreateLayer]> = [
    ...flags.ccApi.map((id) => [id, 'cc-api'] as [string, RecreateLayer]),
    ...flags.sdkProvider.map((id) => [id, 'sdk'] as [string, RecreateLayer]),
  ];
  if (named.length === 0) return undefined;
  const both = flags.ccApi.filter((id) => flags.sdkProvider.includes(id));
  if (both.length > 0) {
    throw new CdkdError(
      'RECREATE_FLAGS_CONFLICT',
      `${both.join(', ')} is named by both ${RECREATE_FLAGS['cc-api']} and ${RECREATE_FLAGS.sdk}.`,
      { hint: 'Name each logical id with one of the two flags: the layer it is re-created on.' },
    );
  }
  const known = runLogicalIds(stacks);
  const unknown = named.filter(([id]) => !known.has(id));
  if (unknown.length > 0) {
    const [id, layer] = unknown[0]!;
    throw new CdkdError(
      'RECREATE_VIA_UNKNOWN_ID',
      `${RECREATE_FLAGS[layer]} names ${shownId(id)}, which no stack of this run declares; nothing was changed.`,
      {
        hint: "Check the logical id (cdkd synth prints each stack's template), or select the stack that declares it.",
      },
    );
  }
  return Object.fromEntries(named);
}

import { messageOf } from '../errors.js';
import {
  decidePutBack,
  holdersOf,
  removedInlinePolicies,
  withoutName,
  type InlinePolicyHolder,
  type InlinePolicyName,
} from '../rollback-decisions/index.js';
import type { PlannedStep } from './plan-rollback.js';
import type { ReplayServices, StepOutcome } from './replay-step.js';

/** A put-back's outcome, for the log line and the ROLLBACK_RESOURCE_SUCCEEDED event of the holder. */
export interface PutBackOutcome extends StepOutcome {
  type: string;
}

/**
 * Spec 000, "IAM inline policy names moved between resources": after the steps ran,
 * every inline policy name a step took off a principal that a state record still
 * holds there gets that record's document back. One put-back per holder and name.
 */
export async function putBackInlinePolicies(
  planned: readonly PlannedStep[],
  outcomes: readonly StepOutcome[],
  services: ReplayServices,
): Promise<PutBackOutcome[]> {
  const unfinished = new Set(
    planned.filter((_, index) => !finished(outcomes[index])).map(({ op }) => op.logicalId),
  );
  const removed = planned.flatMap(({ step }, index) =>
    outcomes[index]?.status === 'succeeded' ? removedInlinePolicies(step) : [],
  );
  const results: PutBackOutcome[] = [];
  const seen = new Set<string>();
  for (const name of removed) {
    const key = JSON.stringify([name.principal.kind, name.principal.name.toLowerCase(), name.policyName]);
    if (seen.has(key)) continue;
    seen.add(key);
    const holders = holdersOf(name, services.state.document.resources);
    const decision = decidePutBack(name, holders, unfinished);
    if (decision.kind === 'none') continue;
    if (decision.kind === 'warn') {
      const logicalId = holders[0]!.logicalId;
      const type = holders[0]!.record.type;
      results.push({ logicalId, type, status: 'skipped', warn: true, message: decision.reason });
      continue;
    }
    results.push(await putBack(decision.holder, name, services));
  }
  return results;
}

function finished(outcome: StepOutcome | undefined): boolean {
  if (outcome === undefined || outcome.status === 'failed') return false;
  return outcome.status === 'succeeded' || !outcome.warn;
}

async function putBack(
  holder: InlinePolicyHolder,
  name: InlinePolicyName,
  services: ReplayServices,
): Promise<PutBackOutcome> {
  const { logicalId, record } = holder;
  const on = name.principal.kind.toLowerCase();
  try {
    const provider = await services.router.providerFor(record.type, record.provisionedBy);
    const properties = await services.sendable(record.properties);
    const previousProperties = await services.sendable(withoutName(holder, name));
    await services.retry(logicalId, () =>
      provider.update(
        { logicalId, type: record.type, physicalId: record.physicalId, properties, previousProperties },
        services.context,
      ),
    );
    return {
      logicalId,
      type: record.type,
      status: 'succeeded',
      warn: false,
      message: `put back the inline policy ${logicalId} records on its ${on}`,
    };
  } catch (error) {
    return {
      logicalId,
      type: record.type,
      status: 'skipped',
      warn: true,
      message: `could not put back the inline policy ${logicalId} records on its ${on} ${name.principal.name} (${name.policyName}): ${messageOf(error)}; the ${on} lacks it until the resource next changes or cdkd drift --revert runs`,
    };
  }
}

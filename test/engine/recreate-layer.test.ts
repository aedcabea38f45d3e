import { describe, expect, it } from 'vitest';
import type { ProviderRouter } from '../../src/provider-calls/router.js';
import { refuseUnreachableRecreates } from '../../src/engine/planning/recreate-layer.js';
import { CdkdError } from '../../src/errors.js';
import type { Plan, PlannedOperation } from '../../src/plan/index.js';
import type { Provider } from '../../src/providers/provider.js';

// A --recreate-via-* target the named layer cannot make is refused at planning.
const provider = (handles: boolean) => ({ handles: () => handles }) as unknown as Provider;

const router = (sdkTypes: string[], ccHandles: boolean): ProviderRouter =>
  ({
    providerFor: (type: string, kind: string) => {
      if (kind === 'cc-api') return provider(ccHandles);
      if (!sdkTypes.includes(type))
        throw new CdkdError('SDK_PROVIDER_MISSING', `No SDK provider for ${type}.`);
      return provider(true);
    },
  }) as unknown as ProviderRouter;

const planOf = (recreateVia: 'sdk' | 'cc-api' | undefined, type = 'AWS::Athena::WorkGroup'): Plan => ({
  operations: [
    { logicalId: 'Target', kind: 'replace', type, ...(recreateVia && { recreateVia }) } as PlannedOperation,
  ],
});

describe('refuseUnreachableRecreates', () => {
  it('an SDK target for a type with no SDK provider is refused', async () => {
    await expect(refuseUnreachableRecreates(planOf('sdk'), router([], true))).rejects.toThrow(
      'Target (AWS::Athena::WorkGroup) cannot be re-created via the SDK provider: cdkd has no SDK provider for AWS::Athena::WorkGroup',
    );
  });

  it('a Cloud Control target Cloud Control cannot address is refused', async () => {
    await expect(
      refuseUnreachableRecreates(planOf('cc-api', 'Custom::Thing'), router([], false)),
    ).rejects.toThrow('Cloud Control cannot manage Custom::Thing');
  });

  it('a reachable layer passes, and so does a plan without the flags', async () => {
    await expect(
      refuseUnreachableRecreates(planOf('sdk', 'AWS::SQS::Queue'), router(['AWS::SQS::Queue'], true)),
    ).resolves.toBeUndefined();
    await expect(refuseUnreachableRecreates(planOf('cc-api'), router([], true))).resolves.toBeUndefined();
    await expect(refuseUnreachableRecreates(planOf(undefined), router([], false))).resolves.toBeUndefined();
  });
});

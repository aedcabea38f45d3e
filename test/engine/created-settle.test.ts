import { describe, expect, it } from 'vitest';
import { CreatedResources } from '../../src/engine/execute/created-settle.js';
import { CdkdError } from '../../src/errors.js';
import type { DeleteRequest, Provider, ProviderContext } from '../../src/providers/provider.js';

const context = { accountId: '0', region: 'us-east-1', stackName: 'S' } as ProviderContext;
const request = (logicalId: string): DeleteRequest => ({
  logicalId,
  type: 'AWS::Test::Thing',
  physicalId: `${logicalId}-id`,
  properties: {},
});

/** A provider whose `untilUsable` records the ids it waited for and fails for `failing`. */
function provider(waited: string[], failing = new Set<string>()): Provider {
  return {
    untilUsable: async (req: DeleteRequest) => {
      waited.push(req.physicalId);
      if (failing.has(req.logicalId)) throw new Error(`${req.physicalId} failed to become Active`);
    },
  } as unknown as Provider;
}

describe('CreatedResources', () => {
  it('waits once for each created resource whose provider settles, skipping providers without the hook', async () => {
    const waited: string[] = [];
    const created = new CreatedResources();
    created.add(provider(waited), request('A'));
    created.add({} as Provider, request('B'));
    created.add(provider(waited), request('C'));
    await created.settle(context);
    expect(waited.sort()).toEqual(['A-id', 'C-id']);
    await created.settle(context);
    expect(waited).toHaveLength(2);
  });

  it('waits for all, then fails the deploy naming each resource that never became usable', async () => {
    const waited: string[] = [];
    const created = new CreatedResources();
    const failing = new Set(['A', 'C']);
    for (const id of ['A', 'B', 'C']) created.add(provider(waited, failing), request(id));
    const error = await created.settle(context).catch((e: unknown) => e);
    expect(waited).toHaveLength(3);
    expect(error).toBeInstanceOf(CdkdError);
    expect((error as CdkdError).code).toBe('DEPLOY_FAILED');
    expect((error as Error).message).toBe(
      'Resources this deploy created did not become usable: A: A-id failed to become Active; C: C-id failed to become Active',
    );
  });
});

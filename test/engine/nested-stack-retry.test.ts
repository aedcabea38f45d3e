import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../../src/engine/engine-context.js';
import { NestedStackProvider } from '../../src/engine/nested/nested-stack-provider.js';
import { retryClassOf } from '../../src/providers/retry-class.js';

/** What a throttled child resource leaves behind: an error every provider's schedule would replay. */
function throttled(): Error {
  return Object.assign(new Error('Rate exceeded'), {
    name: 'ThrottlingException',
    $metadata: { httpStatusCode: 400 },
  });
}

function provider(fail: () => Error): NestedStackProvider {
  const parent = {
    stackName: 'Top',
    stateName: 'Top',
    region: 'us-east-1',
    accountId: '123456789012',
    nested: new Map([['Child', { template: { Resources: {} } }]]),
  };
  return new NestedStackProvider(
    parent as never,
    {} as never,
    async () => Promise.reject(fail()),
    async () => Promise.reject(fail()),
    {} as EngineContext,
  );
}

describe('AWS::CloudFormation::Stack is outside the outer retry (spec 003)', () => {
  it('would be replayed were it an ordinary provider error', () => {
    expect(retryClassOf(throttled())).toBe('throttling');
  });

  it.each([
    [
      'create',
      (p: NestedStackProvider) =>
        p.create({ logicalId: 'Child', type: 'AWS::CloudFormation::Stack', properties: {} }),
    ],
    [
      'update',
      (p: NestedStackProvider) =>
        p.update({
          logicalId: 'Child',
          type: 'AWS::CloudFormation::Stack',
          properties: {},
          physicalId: 'arn',
          previousProperties: {},
        }),
    ],
    [
      'delete',
      (p: NestedStackProvider) =>
        p.delete({
          logicalId: 'Child',
          type: 'AWS::CloudFormation::Stack',
          properties: {},
          physicalId: 'arn',
        }),
    ],
  ])('a failed child %s is final: the outer schedule never replays the child', async (_name, call) => {
    const error = await call(provider(throttled)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ name: 'ThrottlingException' });
    expect(retryClassOf(error)).toBeUndefined();
  });
});

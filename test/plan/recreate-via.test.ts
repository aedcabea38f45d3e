import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { routeLabel } from '../../src/plan/recreate-via.js';
import type { RecordedResource } from '../../src/plan/types.js';
import { allProviders, desired, recorded } from './helpers.js';

// --recreate-via-cc-api / --recreate-via-sdk-provider in the plan, one case per row.
const queue = desired('Queue', 'AWS::SQS::Queue', { QueueName: 'q', DelaySeconds: 5 });

function plan(record: RecordedResource | undefined, layer: 'sdk' | 'cc-api' | undefined, wanted = queue) {
  return buildPlan(
    {
      desired: [wanted],
      recorded: record ? { Queue: record } : {},
      ...(layer && { recreateVia: { Queue: layer } }),
    },
    allProviders,
  ).operations;
}

describe('a --recreate-via-* target in the plan', () => {
  it('an unchanged recorded resource is replaced on the named layer, from the one it was on', () => {
    const [op] = plan(recorded('AWS::SQS::Queue', queue.properties, { provisionedBy: 'sdk' }), 'cc-api');
    expect(op).toMatchObject({
      kind: 'replace',
      recreateVia: 'cc-api',
      recreateFrom: 'sdk',
      reason: 're-created via Cloud Control (--recreate-via-cc-api)',
    });
  });

  it('a changed one keeps what changed in its reason', () => {
    const record = recorded(
      'AWS::SQS::Queue',
      { QueueName: 'q', DelaySeconds: 1 },
      { provisionedBy: 'cc-api' },
    );
    const [op] = plan(record, 'sdk');
    expect(op).toMatchObject({ kind: 'replace', recreateVia: 'sdk', recreateFrom: 'cc-api' });
    expect(op!.reason).toBe(
      'changed: DelaySeconds; re-created via the SDK provider (--recreate-via-sdk-provider)',
    );
  });

  it('a record with no provisionedBy counts as made by the SDK provider', () => {
    const [op] = plan(recorded('AWS::SQS::Queue', queue.properties), 'cc-api');
    expect(op).toMatchObject({ kind: 'replace', recreateFrom: 'sdk' });
  });

  it('a resource not yet made is created, on the named layer', () => {
    const [op] = plan(undefined, 'cc-api');
    expect(op).toMatchObject({ kind: 'create', recreateVia: 'cc-api' });
    expect(op!.recreateFrom).toBeUndefined();
  });

  it('a resource leaving the template is deleted as planned', () => {
    const ops = buildPlan(
      {
        desired: [],
        recorded: { Queue: recorded('AWS::SQS::Queue', queue.properties) },
        recreateVia: { Queue: 'cc-api' },
      },
      allProviders,
    ).operations;
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'delete' });
    expect(ops[0]!.recreateVia).toBeUndefined();
  });

  it('without the flag nothing changes: an unchanged resource is a no-op', () => {
    const [op] = plan(recorded('AWS::SQS::Queue', queue.properties, { provisionedBy: 'sdk' }), undefined);
    expect(op).toMatchObject({ kind: 'no-op' });
    expect(op!.recreateVia).toBeUndefined();
  });
});

describe('the prompt route label', () => {
  it.each([
    ['sdk', 'cc-api', 'SDK → CC'],
    ['cc-api', 'sdk', 'CC → SDK'],
  ] as const)('%s to %s reads %s', (from, to, label) => {
    expect(routeLabel(from, to)).toBe(label);
  });
});

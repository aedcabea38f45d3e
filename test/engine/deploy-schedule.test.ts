import { describe, expect, it } from 'vitest';
import type { DeployEvent } from '../../src/engine/events.js';
import { useSandboxEngine } from '../helpers/sandbox-engine.js';

const h = useSandboxEngine('cdkd-deploy-schedule-test');

const queue = { Type: 'AWS::SQS::Queue', Properties: {} };
const parameter = (value: unknown) => ({
  Type: 'AWS::SSM::Parameter',
  Properties: { Type: 'String', Value: value },
});

function startOf(events: DeployEvent[]): Extract<DeployEvent, { kind: 'stack' }> {
  const start = events.find((event) => event.kind === 'stack' && event.status === 'started');
  if (start?.kind !== 'stack') throw new Error('no start event');
  return start;
}

describe('the deploy schedule on the start event (the ETA)', () => {
  it('lists the acting operations with their dependencies, and the past times once there are some', async () => {
    const resources = { Queue: queue, Param: parameter({ 'Fn::GetAtt': ['Queue', 'Arn'] }) };
    await h.deploy('ScheduleStack', resources, { estimate: true });
    const first = startOf(h.events).schedule;
    expect(first?.operations).toEqual([
      { logicalId: 'Queue', type: 'AWS::SQS::Queue', action: 'create', phase: 'deploy', dependsOn: [] },
      {
        logicalId: 'Param',
        type: 'AWS::SSM::Parameter',
        action: 'create',
        phase: 'deploy',
        dependsOn: ['Queue'],
      },
    ]);
    expect(first?.pastMs).toEqual({});
    expect(first?.concurrency).toBe(4);
    // The sandbox is another endpoint: the aws profile's times are not its.
    expect(first?.awsEndpoint).toBe(false);

    // The second deploy changes the parameter only: the queue is a no-op, left out.
    await h.deploy('ScheduleStack', { ...resources, Param: parameter('changed') }, { estimate: true });
    const second = startOf(h.events).schedule;
    expect(second?.operations.map((op) => `${op.logicalId} ${op.action}`)).toEqual(['Param update']);
    expect(Object.keys(second?.pastMs ?? {}).sort()).toEqual([
      'AWS::SQS::Queue create',
      'AWS::SSM::Parameter create',
    ]);
    expect(second?.pastMs['AWS::SQS::Queue create']).toBeGreaterThanOrEqual(0);
  });

  it('is not read or sent unless asked for', async () => {
    await h.deploy('NoScheduleStack', { Queue: queue });
    expect(startOf(h.events).schedule).toBeUndefined();
  });
});

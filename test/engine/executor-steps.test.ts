import { describe, expect, it } from 'vitest';
import {
  ResourceExecutor,
  type OperationObserver,
  type StepObserver,
} from '../../src/engine/execute/index.js';
import { eventSteps } from '../../src/engine/execute/resource-steps.js';
import type { DeployEvent } from '../../src/messages/index.js';
import type { PlannedOperation } from '../../src/plan/index.js';
import type { ProviderRouter } from '../../src/provider-calls/index.js';
import type { Provider } from '../../src/providers/provider.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import type { StackState } from '../../src/stack-state/index.js';

const record: ResourceRecord = {
  type: 'AWS::SQS::Queue',
  physicalId: 'https://sqs/queue-1',
  properties: { QueueName: 'queue-1' },
  attributes: {},
  provisionedBy: 'sdk',
  dependencies: [],
};
const deleteOp = { kind: 'delete', logicalId: 'Queue', type: 'AWS::SQS::Queue' } as PlannedOperation;

/** An executor over one recorded queue whose delete does what `remove` says. */
function executor(log: string[], remove: () => Promise<void>) {
  const records: Record<string, ResourceRecord> = { Queue: record };
  const state = {
    ref: { stackName: 'S', region: 'us-east-1' },
    record: (id: string) => records[id],
    removeRecord: async (id: string) => void delete records[id],
  } as unknown as StackState;
  const provider = { delete: () => remove() } as unknown as Provider;
  const mutations: OperationObserver<string> = {
    before: async (draft) => (log.push(`mutation before ${draft.action}`), draft.logicalId),
    during: async () => {},
    after: async (_, outcome) => void log.push(`mutation after ${outcome.status}`),
  };
  const steps: StepObserver = {
    started: (op, action) => void log.push(`step started ${action} ${op.logicalId}`),
    ended: (op, end) => void log.push(`step ended ${end.action} ${end.status}`),
  };
  return new ResourceExecutor({
    state,
    router: { providerFor: () => provider } as unknown as ProviderRouter,
    context: { clients: {}, accountId: '123456789012', region: 'us-east-1', stackName: 'S' } as never,
    sendable: async (properties) => properties,
    retry: (_label, call) => call(),
    events: () => log.push('an event the step observer should have heard'),
    observer: mutations,
    steps,
  });
}

describe('the executor tells its step observer of each planned operation, its journal of each mutation', () => {
  it('a delete: one step around one journaled mutation', async () => {
    const log: string[] = [];
    await executor(log, async () => {}).run(deleteOp);
    expect(log).toEqual([
      'step started delete Queue',
      'mutation before delete',
      'mutation after completed',
      'step ended delete succeeded',
    ]);
  });

  it('a failed delete ends its step failed', async () => {
    const log: string[] = [];
    const run = executor(log, async () => {
      throw new Error('AccessDenied');
    });
    await expect(run.run(deleteOp)).rejects.toMatchObject({ code: 'RESOURCE_FAILED' });
    expect(log.at(-1)).toBe('step ended delete failed');
    expect(log).not.toContain('an event the step observer should have heard');
  });
});

describe('eventSteps: the event sink as a step observer', () => {
  const op = { kind: 'update', logicalId: 'Queue', type: 'AWS::SQS::Queue' } as PlannedOperation;
  function observed() {
    const events: DeployEvent[] = [];
    let clock = 1000;
    const state = {
      ref: { stackName: 'S', region: 'us-east-1' },
      record: (id: string) => (id === 'Queue' ? { ...record, physicalId: 'q-1' } : undefined),
    } as unknown as StackState;
    const steps = eventSteps(
      (event) => events.push(event),
      state,
      () => clock,
    );
    return { events, steps, advance: (ms: number) => (clock += ms) };
  }

  it('a start names the physical id and carries no duration; its end is timed from it', () => {
    const { events, steps, advance } = observed();
    steps.started(op, 'update', 'why');
    advance(250);
    steps.ended(op, { action: 'replace', status: 'succeeded' });
    expect(events).toEqual([
      {
        kind: 'resource',
        stack: 'S',
        logicalId: 'Queue',
        type: 'AWS::SQS::Queue',
        action: 'update',
        status: 'started',
        physicalId: 'q-1',
        message: 'why',
      },
      {
        kind: 'resource',
        stack: 'S',
        logicalId: 'Queue',
        type: 'AWS::SQS::Queue',
        action: 'replace',
        status: 'succeeded',
        physicalId: 'q-1',
        durationMs: 250,
      },
    ]);
  });

  it('a failure names no physical id', () => {
    const { events, steps } = observed();
    steps.started(op, 'update');
    steps.ended(op, { action: 'update', status: 'failed', message: 'boom' });
    expect(events[1]).not.toHaveProperty('physicalId');
    expect(events[1]).toMatchObject({ status: 'failed', message: 'boom', durationMs: 0 });
  });

  it('an end without a start (a skipped or retained resource) takes no time', () => {
    const { events, steps } = observed();
    steps.ended(op, { action: 'retain', status: 'succeeded' });
    expect(events[0]).toMatchObject({ action: 'retain', status: 'succeeded', durationMs: 0 });
  });
});

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
import { OutcomeUnknownError, type Provider } from '../../src/providers/provider.js';
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

/** An executor whose provider's delete does what `remove` says, logging into `log`. */
function executor(log: string[], observer: OperationObserver<string>, remove: () => Promise<void>) {
  const provider = {
    delete: async () => {
      log.push('delete sent');
      await remove();
    },
  } as unknown as Provider;
  const router = { providerFor: () => provider } as unknown as ProviderRouter;
  return new ResourceExecutor({
    state: {} as StackState,
    router,
    context: { clients: {}, accountId: '123456789012', region: 'us-east-1', stackName: 'S' } as never,
    sendable: async (properties) => properties,
    retry: (_label, call) => call(),
    events: () => {},
    observer,
  });
}

function recordingObserver(log: string[]): OperationObserver<string> {
  return {
    before: async (draft) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`before ${draft.action} ${draft.logicalId}`);
      return `entry-${draft.logicalId}`;
    },
    during: async (entry, fact) => void log.push(`during ${entry} ${JSON.stringify(fact)}`),
    after: async (entry, outcome) =>
      void log.push(
        `after ${entry} ${outcome.status}${'facts' in outcome && outcome.facts.error ? ` ${outcome.facts.error}` : ''}`,
      ),
  };
}

describe('the executor tells its observer of each mutation', () => {
  it('awaits before() ahead of sending the call, then reports it completed', async () => {
    const log: string[] = [];
    const run = executor(log, recordingObserver(log), async () => {});
    await run.deleteJournaled('Queue', record, async () => void log.push('forgotten'));
    expect(log).toEqual(['before delete Queue', 'delete sent', 'forgotten', 'after entry-Queue completed']);
  });

  it('reports a failed call with its error', async () => {
    const log: string[] = [];
    const run = executor(log, recordingObserver(log), async () => {
      throw new Error('AccessDenied');
    });
    await expect(run.deleteJournaled('Queue', record, async () => {})).rejects.toThrow('AccessDenied');
    expect(log).toEqual(['before delete Queue', 'delete sent', 'after entry-Queue failed AccessDenied']);
  });

  it('leaves a call whose answer never came in flight: no after()', async () => {
    const log: string[] = [];
    const run = executor(log, recordingObserver(log), async () => {
      throw new OutcomeUnknownError('connection reset');
    });
    await expect(run.deleteJournaled('Queue', record, async () => {})).rejects.toThrow('connection reset');
    expect(log).toEqual(['before delete Queue', 'delete sent']);
  });
});

const deleteOp = { kind: 'delete', logicalId: 'Queue', type: 'AWS::SQS::Queue' } as PlannedOperation;

/** An executor over one recorded queue whose delete does what `remove` says. */
function steppedExecutor(log: string[], remove: () => Promise<void>) {
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
    await steppedExecutor(log, async () => {}).run(deleteOp);
    expect(log).toEqual([
      'step started delete Queue',
      'mutation before delete',
      'mutation after completed',
      'step ended delete succeeded',
    ]);
  });

  it('a failed delete ends its step failed', async () => {
    const log: string[] = [];
    const run = steppedExecutor(log, async () => {
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

import { describe, expect, it } from 'vitest';
import { ResourceExecutor, type OperationObserver } from '../../src/engine/execute/index.js';
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

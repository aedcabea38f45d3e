import {
  CreateLogGroupCommand,
  CreateLogStreamCommand,
  DeleteLogGroupCommand,
  FilterLogEventsCommand,
  GetLogEventsCommand,
  PutLogEventsCommand,
  type CloudWatchLogsClient,
} from '@aws-sdk/client-cloudwatch-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure } from './helpers.js';
import { logsClient } from './lambda-runtime-helpers.js';

let sandbox: Sandbox;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  logs = logsClient(sandbox);
});
afterAll(async () => {
  logs.destroy();
  await sandbox.stop();
});

async function streamWith(group: string, stream: string, messages: string[]): Promise<void> {
  await logs.send(new CreateLogGroupCommand({ logGroupName: group }));
  await logs.send(new CreateLogStreamCommand({ logGroupName: group, logStreamName: stream }));
  await logs.send(
    new PutLogEventsCommand({
      logGroupName: group,
      logStreamName: stream,
      logEvents: messages.map((message, index) => ({ timestamp: 1_000 + index, message })),
    }),
  );
}

describe('CloudWatch Logs events', () => {
  it('returns what PutLogEvents stored, oldest first from the head', async () => {
    await streamWith('/app/one', 's1', ['first', 'second', 'third']);
    const { events } = await logs.send(
      new GetLogEventsCommand({
        logGroupName: '/app/one',
        logStreamName: 's1',
        startFromHead: true,
        limit: 2,
      }),
    );
    expect(events?.map((event) => [event.timestamp, event.message])).toEqual([
      [1000, 'first'],
      [1001, 'second'],
    ]);
  });

  it('filters a group by its streams, a time window and plain terms', async () => {
    await streamWith('/app/two', 'a', ['ERROR disk full', 'INFO fine']);
    await logs.send(new CreateLogStreamCommand({ logGroupName: '/app/two', logStreamName: 'b' }));
    await logs.send(
      new PutLogEventsCommand({
        logGroupName: '/app/two',
        logStreamName: 'b',
        logEvents: [{ timestamp: 5_000, message: 'ERROR disk full again' }],
      }),
    );
    const byTerm = await logs.send(
      new FilterLogEventsCommand({ logGroupName: '/app/two', filterPattern: 'ERROR full' }),
    );
    expect(byTerm.events?.map((event) => [event.logStreamName, event.message])).toEqual([
      ['a', 'ERROR disk full'],
      ['b', 'ERROR disk full again'],
    ]);
    const windowed = await logs.send(
      new FilterLogEventsCommand({ logGroupName: '/app/two', startTime: 2_000, logStreamNames: ['a', 'b'] }),
    );
    expect(windowed.events?.map((event) => event.message)).toEqual(['ERROR disk full again']);
  });

  it('gives an event the same eventId in every read, whatever window it was read in', async () => {
    await streamWith('/app/ids', 's', ['one', 'two', 'three']);
    const all = await logs.send(new FilterLogEventsCommand({ logGroupName: '/app/ids' }));
    const later = await logs.send(new FilterLogEventsCommand({ logGroupName: '/app/ids', startTime: 1_001 }));
    const idOf = (events: typeof all.events, message: string) =>
      events?.find((event) => event.message === message)?.eventId;
    expect(idOf(later.events, 'two')).toBe(idOf(all.events, 'two'));
    expect(idOf(later.events, 'three')).toBe(idOf(all.events, 'three'));
  });

  it('refuses events for a stream that does not exist, and forgets events with their group', async () => {
    await streamWith('/app/three', 's', ['kept until the group goes']);
    const missing = await failure(
      logs.send(
        new PutLogEventsCommand({
          logGroupName: '/app/three',
          logStreamName: 'nope',
          logEvents: [{ timestamp: 1, message: 'x' }],
        }),
      ),
    );
    expect(missing.name).toBe('ResourceNotFoundException');
    await logs.send(new DeleteLogGroupCommand({ logGroupName: '/app/three' }));
    await logs.send(new CreateLogGroupCommand({ logGroupName: '/app/three' }));
    await logs.send(new CreateLogStreamCommand({ logGroupName: '/app/three', logStreamName: 's' }));
    const { events } = await logs.send(
      new GetLogEventsCommand({ logGroupName: '/app/three', logStreamName: 's' }),
    );
    expect(events).toEqual([]);
  });
});

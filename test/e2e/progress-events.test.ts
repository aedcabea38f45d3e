import { Stack } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { progressEventSchema, type ProgressEvent } from '../../src/messages/progress-events.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { NEXT_CREATE_QUEUE_FAILS } from '../helpers/sandbox-engine.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);

/** The next SQS CreateQueue fails with a 400, as an invalid attribute would. */
async function failNextQueue(): Promise<void> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(NEXT_CREATE_QUEUE_FAILS),
  });
  expect(response.status).toBe(201);
}

/** Every stdout line parsed and checked against the published schema. */
const eventsOf = (stdout: string): ProgressEvent[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => progressEventSchema.parse(JSON.parse(line)));

/** `--progress events`: a deploy with a failure and its rollback, read as CI would read it. */
describe('the progress event stream', () => {
  let app: string;

  beforeAll(async () => {
    // The queue waits for the topic, so the failure comes after the topic is made: a rollback deletes it.
    app = synthesizeApp((cdkApp) => {
      const stack = new Stack(cdkApp, 'Streamed');
      const topic = new Topic(stack, 'Topic');
      new Queue(stack, 'Queue').node.addDependency(topic);
    });
    expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
  }, 120_000);

  it('a failed deploy and its automatic rollback, one schema-valid JSON object per line', async () => {
    await failNextQueue();
    const result = await runCli(['deploy', '-a', app, '--progress', 'events'], { env: env() });
    expect(result.code).toBe(1);
    const events = eventsOf(result.stdout);
    expect(new Set(events.map((event) => event.run)).size).toBe(1);
    expect(events[0]).toMatchObject({ type: 'run', status: 'started', command: 'deploy' });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'resource',
        stack: 'Streamed',
        resource: expect.objectContaining({ type: 'AWS::SQS::Queue' }),
        action: 'create',
        status: 'failed',
        error: expect.objectContaining({ code: NEXT_CREATE_QUEUE_FAILS.errorCode }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'rollback', stack: 'Streamed', status: 'succeeded' }),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'run',
      status: 'failed',
      error: { code: 'DEPLOY_FAILED', hint: expect.any(String) },
    });
    // Elapsed time never goes back.
    const elapsed = events.map((event) => event.elapsedMs);
    expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b));
  }, 120_000);

  it('--progress errors keeps the failure and the end, not the progress', async () => {
    await failNextQueue();
    const result = await runCli(['deploy', '-a', app, '--progress', 'errors'], { env: env() });
    expect(result.code).toBe(1);
    const events = eventsOf(result.stdout);
    expect(events.some((event) => event.type === 'resource' && event.status === 'failed')).toBe(true);
    expect(events.filter((event) => 'status' in event && event.status === 'started')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'run', status: 'failed' });
  }, 120_000);

  it('a deploy that succeeds ends with a succeeded run; outputs go to stderr, not into the stream', async () => {
    const result = await runCli(['deploy', '-a', app, '--progress', 'events'], { env: env() });
    expect(result.code).toBe(0);
    const events = eventsOf(result.stdout);
    expect(events.at(-1)).toMatchObject({ type: 'run', status: 'succeeded' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'resource', action: 'create', status: 'succeeded' }),
    );
  }, 120_000);

  it('destroy streams too', async () => {
    const result = await runCli(['destroy', '-a', app, '--progress', 'events', '--yes'], { env: env() });
    expect(result.code).toBe(0);
    const events = eventsOf(result.stdout);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'resource',
        action: 'delete',
        status: 'succeeded',
        command: 'destroy',
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'run', status: 'succeeded' });
  }, 120_000);

  it('cdkd rollback streams its steps after a first deploy left under --no-rollback', async () => {
    const updated = synthesizeApp((cdkApp) => {
      const stack = new Stack(cdkApp, 'Streamed');
      const topic = new Topic(stack, 'Topic');
      new Queue(stack, 'Queue').node.addDependency(topic);
      new Queue(stack, 'Second').node.addDependency(topic);
    });
    await failNextQueue();
    expect((await runCli(['deploy', '-a', updated, '--no-rollback'], { env: env() })).code).toBe(1);
    const result = await runCli(['rollback', 'Streamed', '--progress', 'events', '--yes'], { env: env() });
    expect(result.code).toBe(0);
    const events = eventsOf(result.stdout);
    expect(events[0]).toMatchObject({ type: 'run', status: 'started', command: 'rollback' });
    expect(events.some((event) => event.type === 'rollback')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run', status: 'succeeded' });
    expect(result.stderr).toContain('Streamed: rolled back.');
  }, 120_000);
});

import { beforeAll, describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress/progress.js';
import type { DeployEvent } from '../../src/engine/events.js';

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = { isTTY, write: (chunk: string) => chunks.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, text: () => chunks.join('') };
}

const resource = (
  logicalId: string,
  status: 'started' | 'succeeded' | 'failed',
  message?: string,
): DeployEvent => ({
  kind: 'resource',
  stack: 'App',
  logicalId,
  type: 'AWS::SQS::Queue',
  action: 'create',
  status,
  ...(status === 'started' ? {} : { durationMs: 1200 }),
  ...(message ? { message } : {}),
});

const run: DeployEvent[] = [
  { kind: 'stack', stack: 'App', status: 'started', total: 3 },
  resource('First', 'started'),
  resource('Second', 'started'),
  resource('First', 'succeeded'),
  resource('Third', 'started'),
];

describe('progress without a TTY', () => {
  it('prints one plain line per event, with no cursor movement', () => {
    const { stream, text } = fakeStream(false);
    const progress = createProgress(stream);
    for (const event of run) progress.sink(event);
    progress.sink(resource('Second', 'failed', 'boom'));
    progress.close();
    expect(text()).not.toContain('\x1b');
    expect(text().split('\n').filter(Boolean)).toEqual([
      'App | stack started',
      'App | First (AWS::SQS::Queue) create started',
      'App | Second (AWS::SQS::Queue) create started',
      'App | First (AWS::SQS::Queue) created 1.2s',
      'App | Third (AWS::SQS::Queue) create started',
      'App | Second (AWS::SQS::Queue) create failed 1.2s: boom',
    ]);
  });
});

describe('progress on a TTY', () => {
  it('keeps one status line per running stack: done / total, in flight, the slowest in flight', () => {
    const { stream, text } = fakeStream(true);
    const progress = createProgress(stream);
    for (const event of run) progress.sink(event);
    // The last frame drawn: after the last cursor-up-and-clear.
    const frames = text().split('\x1b[J');
    expect(frames.at(-1)).toMatch(
      /^App {2}1\/3 done, 2 in flight {2}\d+\.\ds {2}slowest: Second \d+\.\ds\n$/,
    );
    // Resource lines that need no reading are not printed; a failure is, above the status line.
    expect(text()).not.toContain('First (AWS::SQS::Queue) created');
    progress.sink(resource('Second', 'failed', 'boom'));
    expect(text()).toContain('App | Second (AWS::SQS::Queue) create failed 1.2s: boom\n');
    progress.sink({ kind: 'stack', stack: 'App', status: 'failed', message: 'Deploy of App failed' });
    expect(text().split('\x1b[J').at(-1)).toBe('App | stack failed: Deploy of App failed\n');
    progress.close();
  });
});

describe('phase timings', () => {
  it('lists each stack phase in the order it ran', () => {
    const { stream } = fakeStream(false);
    const progress = createProgress(stream);
    progress.sink({ kind: 'phase', stack: 'cdkd', phase: 'credentials', durationMs: 300 });
    progress.sink({ kind: 'phase', stack: 'App', phase: 'lock', durationMs: 40 });
    progress.sink({ kind: 'phase', stack: 'App', phase: 'plan', durationMs: 1250 });
    progress.sink({ kind: 'phase', stack: 'App', phase: 'execution', durationMs: 8000 });
    expect(progress.timings()).toEqual([
      'cdkd timing: credentials 0.3s',
      'App timing: lock 0.0s, plan 1.3s, execution 8.0s',
    ]);
  });
});

describe('the ETA', () => {
  // The progress loads the ETA's code when a stack starts; loaded here first, that import
  // answers at once, so no test races it (on a loaded machine the first load takes seconds).
  beforeAll(() => import('../../src/cli/progress/progress-eta.js'));
  const schedule = {
    operations: [
      {
        logicalId: 'Role',
        type: 'AWS::IAM::Role',
        action: 'create' as const,
        phase: 'deploy' as const,
        dependsOn: [],
      },
      {
        logicalId: 'Fn',
        type: 'AWS::Lambda::Function',
        action: 'create' as const,
        phase: 'deploy' as const,
        dependsOn: ['Role'],
      },
    ],
    // Fn from the stack's past (2 s); Role from the aws profile (8 s).
    pastMs: { 'AWS::Lambda::Function create': 2000 },
    concurrency: 10,
    awsEndpoint: true,
  };
  const started: DeployEvent = { kind: 'stack', stack: 'App', status: 'started', total: 2, schedule };

  it('shows the time left on the stack line, from the critical path and the past times', async () => {
    const { stream, text } = fakeStream(true);
    const progress = createProgress(stream);
    progress.sink(started);
    await expect.poll(() => text().split('\x1b[J').at(-1), { timeout: 30_000 }).toMatch(/ETA ~10s/);
    progress.close();
  });

  it('after the run, says what it predicted and what the deploy took', async () => {
    const { stream, text } = fakeStream(false);
    const progress = createProgress(stream);
    progress.sink(started);
    // The ETA's code, already loaded, is taken on the stack's start; let its import answer.
    await new Promise((resolve) => setTimeout(resolve, 0));
    progress.sink({ kind: 'stack', stack: 'App', status: 'succeeded' });
    expect(text()).toMatch(/App \| ETA predicted 10\.0s, took 0\.\ds \(\+\d+%\)\n$/);
  });

  it("--verbose names the critical path, with each step's expected time", async () => {
    const { stream, text } = fakeStream(false);
    const progress = createProgress(stream, false, true);
    progress.sink(started);
    await expect
      .poll(text, { timeout: 30_000 })
      .toContain('App | critical path ~10.0s: Role 8.0s → Fn 2.0s\n');
    progress.close();
  });

  it('to another endpoint, takes a type with no past from the past of its action, not from the aws profile', async () => {
    const { stream, text } = fakeStream(false);
    const progress = createProgress(stream, false, true);
    progress.sink({ ...started, schedule: { ...schedule, awsEndpoint: false } });
    // Role: no past of its own, the past creates' median (2 s), not the profile's 8 s.
    await expect
      .poll(text, { timeout: 30_000 })
      .toContain('App | critical path ~4.0s: Role 2.0s → Fn 2.0s\n');
    progress.sink({ kind: 'stack', stack: 'App', status: 'succeeded' });
    expect(text()).toMatch(/App \| ETA predicted 4\.0s, took /);
  });

  it('to another endpoint with no past deploy, predicts nothing and says why', async () => {
    const { stream, text } = fakeStream(false);
    const progress = createProgress(stream, false, true);
    progress.sink({ ...started, schedule: { ...schedule, pastMs: {}, awsEndpoint: false } });
    await expect.poll(text, { timeout: 30_000 }).toContain('App | no ETA: no past deploy of this stack');
    progress.sink({ kind: 'stack', stack: 'App', status: 'succeeded' });
    expect(text()).not.toContain('ETA predicted');
    expect(text()).not.toContain('ETA ~');
  });

  it('is not loaded for a stack without a schedule', async () => {
    const { stream, text } = fakeStream(true);
    const progress = createProgress(stream, true, true);
    progress.sink({ kind: 'stack', stack: 'App', status: 'started', total: 0 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    progress.sink({ kind: 'stack', stack: 'App', status: 'succeeded' });
    expect(text()).not.toContain('ETA');
    expect(text()).not.toContain('critical path');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 25, item 16: a dropped connection or a 503 from the state bucket, through the built CLI,
// ends in a message naming the bucket and what cdkd was doing, with what is safe next: no stack
// trace, no SDK sentence alone, a non-zero exit.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const BUCKET = 'cdkd-state-000000000000';

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

async function fault(spec: Record<string, unknown>) {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service: 's3', every: true, ...spec }),
  });
}

const clearFaults = () => fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
const slowDown = { errorCode: 'SlowDown', httpStatus: 503, message: 'Please reduce your request rate.' };

/** Failed, with cdkd's own sentence: no stack trace, nothing "unexpected". */
function expectNamedFailure(result: { code: number | null; stderr: string }) {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toContain('This is unexpected');
  expect(result.stderr).toContain(`in the state bucket "${BUCKET}" failed`);
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('the state bucket failing under a command', { timeout: 180_000 }, () => {
  it('503 SlowDown on every write: the deploy names the lock it could not take', async () => {
    await fault({ operation: 'PutObject', ...slowDown });
    try {
      const result = await cli(['deploy', '-a', app('Slowed', { A: { Type: 'AWS::SQS::Queue' } })]);
      expectNamedFailure(result);
      expect(result.stderr).toContain(
        `Error [STATE_BUCKET_UNAVAILABLE]: Taking or renewing the lock of stack Slowed (us-east-1) in the state bucket "${BUCKET}" failed after 3 attempts: S3 answered HTTP 503 SlowDown: Please reduce your request rate.`,
      );
      expect(result.stderr).toContain('cdkd force-unlock Slowed --region us-east-1');
    } finally {
      await clearFaults();
    }
  });

  it('a dropped connection on reads: state show names the state it could not read', async () => {
    expect((await cli(['deploy', '-a', app('Dropped', { A: { Type: 'AWS::SQS::Queue' } })])).code).toBe(0);
    await fault({ operation: 'GetObject', dropConnection: true });
    try {
      const result = await cli(['state', 'show', 'Dropped']);
      expectNamedFailure(result);
      expect(result.stderr).toContain(
        `Error [STATE_BUCKET_UNAVAILABLE]: Reading the state of stack Dropped (us-east-1) in the state bucket "${BUCKET}" failed after 3 attempts: no answer came back (socket hang up).`,
      );
      expect(result.stderr).toContain('A read changes nothing. Re-run the command');
    } finally {
      await clearFaults();
    }
  });

  it('the lock cannot be released after a failed read either: both are named, and force-unlock clears it', async () => {
    const dir = app('Unreleased', { A: { Type: 'AWS::SQS::Queue' }, B: { Type: 'AWS::SQS::Queue' } });
    expect((await cli(['deploy', '-a', dir])).code).toBe(0);
    await fault({ operation: 'GetObject', dropConnection: true });
    let result;
    try {
      result = await cli(['orphan', 'Unreleased', 'B', '-a', dir]);
    } finally {
      await clearFaults();
    }
    expectNamedFailure(result);
    expect(result.stderr).toContain('Reading the state of stack Unreleased (us-east-1)');
    expect(result.stderr).toContain(
      'The lock could not be released either: Reading the lock of stack Unreleased',
    );
    expect(result.stderr).toContain('cdkd force-unlock Unreleased --region us-east-1');
    const unlocked = await cli(['force-unlock', 'Unreleased', '--region', 'us-east-1', '--yes']);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    // Nothing was orphaned: the failed read stopped it before state changed.
    const shown = await cli(['state', 'show', 'Unreleased', '--json']);
    expect(Object.keys(JSON.parse(shown.stdout).resources).sort()).toEqual(['A', 'B']);
  });

  it('503 on the writes after the lock: the journal or state it could not save, and a re-run settles it', async () => {
    const dir = app('Halfway', { A: { Type: 'AWS::SQS::Queue' }, B: { Type: 'AWS::SQS::Queue' } });
    // The lock is written (the first write), every write after it is refused.
    await fault({ operation: 'PutObject', nth: 2, ...slowDown });
    let result;
    try {
      result = await cli(['deploy', '-a', dir]);
    } finally {
      await clearFaults();
    }
    expectNamedFailure(result);
    expect(result.stderr).toMatch(
      /Error \[STATE_BUCKET_UNAVAILABLE\]: Saving the (state|rollback journal) of stack Halfway \(us-east-1\) in the state bucket "cdkd-state-000000000000" failed after 3 attempts: S3 answered HTTP 503 SlowDown/,
    );
    expect(result.stderr).toContain('cdkd rollback Halfway --region us-east-1');
    const again = await cli(['deploy', '-a', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });
  });
});

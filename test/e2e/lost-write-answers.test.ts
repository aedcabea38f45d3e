import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../src/sandbox/admin/faults.js';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 25, item 6: S3 stores a state or journal write and the answer is lost (the connection
// drops after the write landed). The SDK sends the write again, whose precondition the first
// one already moved on: the stored object is cdkd's own, and the command carries on.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

async function admin(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  return response.json();
}
const addFault = (fault: FaultSpec) => admin('faults', { method: 'POST', body: JSON.stringify(fault) });

/** The nth write of an object whose key holds `key` lands, and its answer is lost. */
const lostAnswer = (key: string, nth: number): FaultSpec => ({
  service: 's3',
  operation: 'PutObject',
  pathContains: key,
  dropConnection: true,
  afterApply: true,
  nth,
});

/** Whether the lost-answer fault, the last one added, met its write. */
async function firedOnce(): Promise<boolean> {
  const { faults } = (await admin('faults')) as { faults: Array<{ fired: number }> };
  return faults.at(-1)?.fired === 1;
}

function assemblyOf(stackName: string, resources: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

const queues = (stackName: string, count: number) =>
  assemblyOf(
    stackName,
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`Queue${i}`, { Type: 'AWS::SQS::Queue' }])),
  );

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

afterEach(async () => {
  await admin('faults', { method: 'DELETE' });
});

describe('a write whose answer is lost after it landed', () => {
  it.each([
    ['the first state save', 'state.json', 1],
    ['a later state save', 'state.json', 3],
    ['the journal document', 'rollback-journal.json', 1],
    ['a journal tail', 'rollback-journal/', 1],
  ])('%s: the deploy carries on and succeeds, every resource recorded', async (_, key, nth) => {
    const stackName = `LostAnswer${key.replace(/[^a-z]/gi, '')}${nth}`;
    await addFault(lostAnswer(key, nth));
    // One at a time: each create is its own state save, and the later ones are journal tails.
    const deployed = await cli(['deploy', '-a', queues(stackName, 4), '--concurrency', '1']);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await firedOnce()).toBe(true);
    const shown = await cli(['state', 'show', stackName, '--json']);
    expect(Object.keys((JSON.parse(shown.stdout) as { resources: object }).resources)).toHaveLength(4);
    expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });
  });

  it('a state save of cdkd rollback: it exits 0 and leaves no record of what it deleted', async () => {
    const stackName = 'LostRollbackStateAnswer';
    const dir = assemblyOf(stackName, {
      Queue: { Type: 'AWS::SQS::Queue' },
      Topic: { Type: 'AWS::SNS::Topic', DependsOn: 'Queue' },
    });
    await addFault({
      service: 'sns',
      operation: 'CreateTopic',
      errorCode: 'InvalidParameter',
      httpStatus: 400,
    });
    expect((await cli(['deploy', '-a', dir, '--no-rollback'])).code).toBe(1);

    await addFault(lostAnswer('state.json', 1));
    const rolledBack = await cli(['rollback', stackName, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
    expect(await firedOnce()).toBe(true);
    expect((await cli(['state', 'show', stackName, '--json'])).code).not.toBe(0);
    expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });
  });

  it('the journal document cdkd rollback keeps: it exits 2 (spec 003), the failed update kept for --revert-failed', async () => {
    const stackName = 'LostRollbackJournalAnswer';
    const queue = (timeout: number) => ({
      Type: 'AWS::SQS::Queue',
      Properties: { VisibilityTimeout: timeout },
    });
    expect((await cli(['deploy', '-a', assemblyOf(stackName, { Queue: queue(30) })])).code).toBe(0);
    await addFault({
      service: 'sqs',
      operation: 'SetQueueAttributes',
      errorCode: 'InvalidAttributeValue',
      httpStatus: 400,
    });
    const failing = assemblyOf(stackName, { Queue: queue(60), Added: { Type: 'AWS::SQS::Queue' } });
    expect((await cli(['deploy', '-a', failing, '--no-rollback'])).code).toBe(1);
    await admin('faults', { method: 'DELETE' });

    await addFault(lostAnswer('rollback-journal.json', 1));
    const rolledBack = await cli(['rollback', stackName, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(2);
    expect(await firedOnce()).toBe(true);
    expect(rolledBack.stdout).toContain('cdkd rollback --revert-failed reverts it');
    const shown = await cli(['state', 'show', stackName, '--json']);
    expect(Object.keys((JSON.parse(shown.stdout) as { resources: object }).resources)).toEqual(['Queue']);
    expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });
  });
});

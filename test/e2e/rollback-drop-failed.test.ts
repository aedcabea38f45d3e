import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd rollback --drop-failed on the built CLI, after a clean automatic rollback.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd rollback --drop-failed', () => {
  it('asks, then discards the failed-only segment a clean automatic rollback left', async () => {
    expect((await cli(['deploy', '-a', app('Dropper', { A: { Type: 'AWS::SQS::Queue' } })])).code).toBe(0);
    await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'sqs',
        operation: 'CreateQueue',
        errorCode: 'InvalidAttributeValue',
        httpStatus: 400,
      }),
    });
    const failed = await cli([
      'deploy',
      '-a',
      app('Dropper', { A: { Type: 'AWS::SQS::Queue' }, B: { Type: 'AWS::SQS::Queue' } }),
    ]);
    expect(failed.code).toBe(1);

    const conflicting = await cli(['rollback', 'Dropper', '--drop-failed', '--revert-failed', '--yes']);
    expect(conflicting.code).toBe(1);
    expect(conflicting.stderr).toContain('--drop-failed');

    const unattended = await cli(['rollback', 'Dropper', '--drop-failed']);
    expect(unattended.code).toBe(1);
    expect(unattended.stdout).toContain('B (AWS::SQS::Queue): failed create');
    expect(unattended.stderr).toContain('--yes');

    const dropped = await cli(['rollback', 'Dropper', '--drop-failed', '--yes']);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(dropped.stdout).toContain('failed operations dropped');
    const after = await cli(['rollback', 'Dropper', '--yes']);
    expect(after.stdout).toContain('no rollback journal');
    const state = JSON.parse((await cli(['state', 'show', 'Dropper', '--json'])).stdout);
    expect(Object.keys(state.resources)).toEqual(['A']);
  });
});

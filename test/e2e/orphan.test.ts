import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd orphan and cdkd state orphan on the built CLI: records leave state, AWS keeps the resources.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

async function recorded(stack: string) {
  const shown = await cli(['state', 'show', stack, '--json']);
  return shown.code === 0 ? JSON.parse(shown.stdout).resources : undefined;
}

async function queueExists(name: string): Promise<boolean> {
  const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
  try {
    await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
    return true;
  } catch {
    return false;
  }
}

const queue = (name: string) => ({ Type: 'AWS::SQS::Queue', Properties: { QueueName: name } });
const reader = (target: string) => ({
  Type: 'AWS::SNS::Topic',
  Properties: { DisplayName: { 'Fn::GetAtt': [target, 'QueueName'] } },
});

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd orphan', () => {
  it('leaves the orphaned resource in AWS through a later destroy', async () => {
    const resources = { Kept: queue('orphan-kept'), Gone: queue('orphan-gone') };
    expect((await cli(['deploy', '-a', app('Orphans', resources)])).code).toBe(0);

    const orphaned = await cli(['orphan', 'Orphans', 'Kept', '-a', app('Orphans', resources)]);
    expect(orphaned.code, orphaned.stderr).toBe(0);
    expect(orphaned.stdout).toContain('Kept (AWS::SQS::Queue)');
    expect(orphaned.stderr).toContain('the app still declares Kept');
    expect(Object.keys(await recorded('Orphans'))).toEqual(['Gone']);

    const destroyed = await cli(['destroy', '-a', app('Orphans', { Gone: queue('orphan-gone') }), '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await queueExists('orphan-kept')).toBe(true);
    expect(await queueExists('orphan-gone')).toBe(false);
  });

  it('refuses a resource the template or state still reads unless --force, and an id state does not record', async () => {
    const resources = { Source: queue('orphan-source'), Reader: reader('Source') };
    expect((await cli(['deploy', '-a', app('Readers', resources)])).code).toBe(0);

    const refused = await cli(['orphan', 'Readers', 'Source', '-a', app('Readers', resources)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Source (read by Reader)');
    expect(refused.stderr).toContain('--force');
    expect(Object.keys(await recorded('Readers')).sort()).toEqual(['Reader', 'Source']);

    const unknown = await cli(['state', 'orphan', 'Readers', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('records no resource Nope');

    const forced = await cli(['state', 'orphan', 'Readers', 'Source', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('Reader still reference Source');
    expect(Object.keys(await recorded('Readers'))).toEqual(['Reader']);
    expect(await queueExists('orphan-source')).toBe(true);
  });

  it('state orphan works on state alone: a stack whose app is gone', async () => {
    expect(
      (await cli(['deploy', '-a', app('NoApp', { Q: queue('orphan-noapp'), R: queue('orphan-noapp-2') })]))
        .code,
    ).toBe(0);
    const orphaned = await cli(['state', 'orphan', 'NoApp', 'Q', 'R']);
    expect(orphaned.code, orphaned.stderr).toBe(0);
    expect(await recorded('NoApp')).toEqual({});
    expect(await queueExists('orphan-noapp')).toBe(true);
  });
});

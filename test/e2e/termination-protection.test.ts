import { Stack } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

function app(terminationProtection: boolean): string {
  return synthesizeApp(
    (cdkApp) =>
      new Queue(new Stack(cdkApp, 'Guarded', { terminationProtection }), 'Queue', { queueName: 'guarded' }),
  );
}

async function queueExists(): Promise<boolean> {
  const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
  return sqs.send(new GetQueueUrlCommand({ QueueName: 'guarded' })).then(
    () => true,
    () => false,
  );
}

/** A stack deployed with terminationProtection: true is not destroyed until a deploy turns it off (as CloudFormation). */
describe('termination protection', () => {
  beforeAll(async () => {
    expect((await cli(['bootstrap'])).code).toBe(0);
  }, 120_000);

  it('refuses destroy and state destroy before asking, until a deploy turns it off', async () => {
    const guarded = app(true);
    const deployed = await cli(['deploy', '-a', guarded]);
    expect(deployed.code, deployed.stderr).toBe(0);

    const destroy = await cli(['destroy', '-a', guarded, '--yes']);
    expect(destroy.code).toBe(1);
    expect(destroy.stderr).toContain(
      'Error [STACK_TERMINATION_PROTECTED]: Stack Guarded (us-east-1) has termination protection on',
    );
    expect(destroy.stderr).toContain('Set terminationProtection to false in the app and deploy');
    // The recorded setting holds even when the app turned it off without deploying.
    const undeployedChange = await cli(['destroy', '-a', app(false), '--yes']);
    expect(undeployedChange.code).toBe(1);
    expect(undeployedChange.stderr).toContain('STACK_TERMINATION_PROTECTED');
    const fromState = await cli(['state', 'destroy', 'Guarded', '--yes']);
    expect(fromState.code).toBe(1);
    expect(fromState.stderr).toContain('STACK_TERMINATION_PROTECTED');
    expect(await queueExists()).toBe(true);

    const unprotected = await cli(['deploy', '-a', app(false)]);
    expect(unprotected.code, unprotected.stderr).toBe(0);
    const destroyed = await cli(['destroy', '-a', app(false), '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await queueExists()).toBe(false);
  });

  it('has nothing to refuse for a protected stack never deployed', async () => {
    const result = await cli(['destroy', '-a', app(true), '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('STACK_TERMINATION_PROTECTED');
  });
});

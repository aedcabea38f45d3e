import { CreateQueueCommand, DeleteQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The checker the kill-point tests assert with: it must see both kinds of loss.
const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('accountFor', () => {
  it('finds a live resource nothing names, and a record whose resource is gone', async () => {
    const dir = tempDir();
    writeAssembly(dir, [
      {
        id: 'Counted',
        template: { Resources: { Kept: { Type: 'AWS::SQS::Queue' }, Lost: { Type: 'AWS::SQS::Queue' } } },
      },
    ]);
    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });

    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    await sqs.send(new CreateQueueCommand({ QueueName: 'stray' }));
    const state = JSON.parse((await cli(['state', 'show', 'Counted', '--json'])).stdout) as {
      resources: Record<string, { physicalId: string }>;
    };
    await sqs.send(new DeleteQueueCommand({ QueueUrl: state.resources.Lost!.physicalId }));

    const accounting = await accountFor(sandbox.current.url);
    expect(accounting.untracked).toEqual(['AWS::SQS::Queue stray']);
    expect(accounting.deadRecords).toEqual([
      `Counted Lost: AWS::SQS::Queue ${state.resources.Lost!.physicalId}`,
    ]);
  });
});

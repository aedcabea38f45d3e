import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteQueueCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CustomResource, Duration, Stack } from 'aws-cdk-lib';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountFor } from '../helpers/accounting.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 25, item 13 (b): a custom resource whose handler cannot delete it stops `cdkd destroy`
// (and a rollback); `cdkd destroy --orphan <logicalId>` is the documented way out: that resource
// is left in AWS, dropped from state and the journal, and named in the output and `cdkd events`.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const sqs = () => new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });

/** A stack whose custom resource's Create makes the queue `made` (its physical id) and whose Delete always fails. */
function undeletableApp(stackName: string, made: string): { assembly: string; customResourceId: string } {
  const handler = `
const { SQSClient, CreateQueueCommand } = require('@aws-sdk/client-sqs');
exports.handler = async (event) => {
  if (event.RequestType === 'Delete') throw new Error('this handler cannot delete what it made');
  const made = await new SQSClient({}).send(new CreateQueueCommand({ QueueName: '${made}' }));
  return { PhysicalResourceId: made.QueueUrl };
};`;
  const assembly = synthesizeApp((app) => {
    const stack = new Stack(app, stackName);
    const onEvent = new Function(stack, 'OnEvent', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline(handler),
      timeout: Duration.seconds(30),
    });
    const provider = new Provider(stack, 'Provider', { onEventHandler: onEvent });
    const made = new CustomResource(stack, 'Made', { serviceToken: provider.serviceToken });
    // Created after the custom resource: a fault on it fails the deploy once the handler made its queue.
    new Queue(stack, 'Plain').node.addDependency(made);
  });
  const file = readdirSync(assembly).find((name) => name === `${stackName}.template.json`)!;
  const template = JSON.parse(readFileSync(join(assembly, file), 'utf8')) as {
    Resources: Record<string, { Type: string }>;
  };
  const customResourceId = Object.entries(template.Resources).find(
    ([, resource]) => resource.Type === 'AWS::CloudFormation::CustomResource',
  )![0];
  return { assembly, customResourceId };
}

/** The orphaned queue, deleted by hand as the output says to. */
async function deleteByHand(name: string): Promise<void> {
  const { QueueUrl } = await sqs().send(new GetQueueUrlCommand({ QueueName: name }));
  await sqs().send(new DeleteQueueCommand({ QueueUrl }));
}

async function expectOrphanedOnly(stackName: string, customResourceId: string, made: string) {
  expect((await cli(['state', 'show', stackName])).code).not.toBe(0);
  expect((await cli(['rollback', stackName, '--yes'])).stdout).toContain('no rollback journal');
  // Only what was orphaned is left in AWS, untracked: the resource the output named.
  expect(await accountFor(sandbox.current.url)).toEqual({
    untracked: [`AWS::SQS::Queue ${made}`],
    deadRecords: [],
  });
  const events = JSON.parse((await cli(['events', stackName, '--json'])).stdout) as Array<
    Record<string, string>
  >;
  expect(events).toContainEqual(
    expect.objectContaining({
      status: 'DELETE_SKIPPED',
      logicalId: customResourceId,
      survivorId: expect.stringContaining(made),
      reason: expect.stringContaining('cdkd destroy --orphan'),
    }),
  );
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd destroy --orphan', () => {
  it('a destroy the handler cannot finish names the way out; --orphan leaves that resource and removes the rest', async () => {
    const { assembly, customResourceId } = undeletableApp('Undeletable', 'undeletable-made');
    const deployed = await cli(['deploy', '-a', assembly]);
    expect(deployed.code, deployed.stderr).toBe(0);

    const stuck = await cli(['destroy', '-a', assembly, '--yes']);
    expect(stuck.code, stuck.stderr).toBe(1);
    expect(stuck.stderr).toContain('this handler cannot delete what it made');
    expect(stuck.stderr).toContain(`cdkd destroy --orphan ${customResourceId}`);

    const unknown = await cli(['destroy', '-a', assembly, '--yes', '--orphan', 'NoSuchResource']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Error [DESTROY_ORPHAN_UNKNOWN]: --orphan names NoSuchResource');
    // Refused before anything was touched: the custom resource is still recorded.
    const kept = JSON.parse((await cli(['state', 'show', 'Undeletable', '--json'])).stdout);
    expect(Object.keys(kept.resources)).toContain(customResourceId);

    const orphaned = await cli(['destroy', '-a', assembly, '--yes', '--orphan', customResourceId]);
    expect(orphaned.code, orphaned.stderr).toBe(0);
    expect(orphaned.stdout).toMatch(
      new RegExp(
        `${customResourceId} \\(AWS::CloudFormation::CustomResource\\) \\S+/undeletable-made orphaned \\(--orphan\\): left in AWS`,
      ),
    );
    await expectOrphanedOnly('Undeletable', customResourceId, 'undeletable-made');
    await deleteByHand('undeletable-made');
  }, 240_000);

  it('after a rollback that failed on the same Delete: --orphan ends with nothing left but that resource', async () => {
    const { assembly, customResourceId } = undeletableApp('Unrollable', 'unrollable-made');
    // The handler's queue is the first CreateQueue, the stack's own queue the second.
    await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'sqs',
        operation: 'CreateQueue',
        nth: 2,
        errorCode: 'InvalidAttributeValue',
        httpStatus: 400,
      }),
    });
    const failed = await cli(['deploy', '-a', assembly]);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('The automatic rollback failed too');

    const stuck = await cli(['destroy', '-a', assembly, '--yes']);
    expect(stuck.code, stuck.stderr).toBe(1);
    expect(stuck.stderr).toContain(`cdkd destroy --orphan ${customResourceId}`);

    const orphaned = await cli(['destroy', '-a', assembly, '--yes', '--orphan', customResourceId]);
    expect(orphaned.code, orphaned.stderr).toBe(0);
    expect(orphaned.stdout).toContain(`${customResourceId} (AWS::CloudFormation::CustomResource)`);
    await expectOrphanedOnly('Unrollable', customResourceId, 'unrollable-made');
  }, 240_000);
});

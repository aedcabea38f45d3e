import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { Stack, aws_sns as sns, aws_sqs as sqs } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { sandboxAccounts } from '../helpers/accounts.js';
import { useSandbox } from '../helpers/sandbox.js';

// The commands that work from cdkd's state alone, run with CI credentials against a stack CI
// deployed into a target account: `--account` routes each through the target's deploy role to
// that account's state bucket, locks and journal; without it they look in CI's own.
const CI = '111111111111';
const TARGET = '222222222222';
const UNTRUSTING = '444444444444';
const REGION = 'us-east-1';

const sandbox = useSandbox();
const { cli, clientConfig, queueExists, keysIn } = sandboxAccounts(sandbox);
const inTarget = ['--account', TARGET];

function queueApp(stackName: string, queues: string[], topic?: string): string {
  return synthesizeApp((app) => {
    const stack = new Stack(app, stackName, { env: { account: TARGET, region: REGION } });
    const made = queues.map((name) => new sqs.Queue(stack, name, { queueName: `${stackName}-${name}` }));
    if (topic) new sns.Topic(stack, 'Topic', { topicName: topic }).node.addDependency(...made);
  });
}

async function faults(init: RequestInit): Promise<void> {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
}

beforeAll(async () => {
  const trusting = await cli(TARGET, 'bootstrap', `aws://${TARGET}/${REGION}`, '--trust', CI);
  expect(trusting.code, trusting.stderr).toBe(0);
  for (const account of [CI, UNTRUSTING]) {
    const own = await cli(account, 'bootstrap');
    expect(own.code, own.stderr).toBe(0);
  }
});

describe("state-only commands reach a stack in another account through that account's deploy role", () => {
  it('state list/show, events, undo --list, drift, refresh-observed, scrub, force-unlock, gc, state orphan and state destroy act in the target account', async () => {
    const app = queueApp('Routed', ['Kept', 'Extra']);
    const deployed = await cli(CI, 'deploy', '-a', app);
    expect(deployed.code, deployed.stderr).toBe(0);

    const own = await cli(CI, 'state', 'list');
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).not.toContain('Routed');
    const listed = await cli(CI, 'state', 'list', ...inTarget);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/Routed\tus-east-1\t2 resources/);

    const shown = await cli(CI, 'state', 'show', 'Routed', '--json', ...inTarget);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`/${TARGET}/Routed-Kept`);
    const extra = Object.keys(JSON.parse(shown.stdout).resources).find((id) => id.startsWith('Extra'));
    expect((await cli(CI, 'state', 'show', 'Routed')).stderr).toContain('STACK_NOT_IN_STATE');

    const events = await cli(CI, 'events', 'Routed', '--json', ...inTarget);
    expect(events.code, events.stderr).toBe(0);
    expect(JSON.parse(events.stdout).length).toBeGreaterThan(0);

    const generations = await cli(CI, 'undo', 'Routed', '--list', ...inTarget);
    expect(generations.code, generations.stderr).toBe(0);
    expect(generations.stdout).toContain('Routed');

    const drift = await cli(CI, 'drift', 'Routed', '--json', '--fail', ...inTarget);
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
    const refreshed = await cli(CI, 'state', 'refresh-observed', 'Routed', ...inTarget);
    expect(refreshed.code, refreshed.stderr).toBe(0);

    // A lock nobody can read, in the target's bucket only: force-unlock finds it there.
    const s3 = new S3Client(clientConfig(TARGET, REGION));
    await s3.send(
      new PutObjectCommand({
        Bucket: `cdkd-state-${TARGET}`,
        Key: `cdkd/Routed/${REGION}/lock.json`,
        Body: 'not a lock',
      }),
    );
    s3.destroy();
    expect((await cli(CI, 'scrub')).stdout).toContain('Nothing left behind');
    const scrubbed = await cli(CI, 'scrub', ...inTarget);
    expect(scrubbed.code, scrubbed.stderr).toBe(2);
    expect(scrubbed.stdout).toContain('Routed (us-east-1): a lock file that is not a readable lock');
    expect((await cli(CI, 'force-unlock', 'Routed')).stdout).toContain(
      'Stack Routed (us-east-1) was not locked.',
    );
    const unlocked = await cli(CI, 'force-unlock', 'Routed', '--yes', ...inTarget);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stdout).toContain('Deleted the unreadable lock on stack Routed');

    const gc = await cli(CI, 'gc', '--dry-run', ...inTarget);
    expect(gc.code, gc.stderr).toBe(0);
    expect(gc.stdout).toContain(`cdkd-assets-${TARGET}-${REGION}`);

    const orphaned = await cli(CI, 'state', 'orphan', 'Routed', extra!, ...inTarget);
    expect(orphaned.code, orphaned.stderr).toBe(0);
    const destroyed = await cli(CI, 'state', 'destroy', 'Routed', '--yes', ...inTarget);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await queueExists(TARGET, REGION, 'Routed-Kept')).toBe(false);
    expect(await queueExists(TARGET, REGION, 'Routed-Extra')).toBe(true);
    expect(
      (await keysIn(TARGET, `cdkd-state-${TARGET}`)).filter((key) => key.endsWith('state.json')),
    ).toEqual([]);
    expect(await keysIn(CI, `cdkd-state-${CI}`)).toEqual([]);
  });

  it("rollback finds a failed deploy's journal in the target account", async () => {
    await faults({
      method: 'POST',
      body: JSON.stringify({
        service: 'sns',
        operation: 'CreateTopic',
        errorCode: 'InvalidParameter',
        httpStatus: 400,
        message: 'injected by the test',
      }),
    });
    const failed = await cli(CI, 'deploy', '-a', queueApp('Failing', ['Made'], 'doomed'), '--no-rollback');
    await faults({ method: 'DELETE' });
    expect(failed.code).toBe(1);
    expect(await queueExists(TARGET, REGION, 'Failing-Made')).toBe(true);

    const own = await cli(CI, 'rollback', '--yes');
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toContain('No stack: no rollback journal');

    const rolledBack = await cli(CI, 'rollback', '--yes', ...inTarget);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
    expect(rolledBack.stdout).toContain('Failing: rolled back.');
    expect(await queueExists(TARGET, REGION, 'Failing-Made')).toBe(false);
  });

  it('export hands the stack to CloudFormation in the target account', async () => {
    const deployed = await cli(CI, 'deploy', '-a', queueApp('Handed', ['Queue']));
    expect(deployed.code, deployed.stderr).toBe(0);
    expect((await cli(CI, 'export', 'Handed')).stderr).toContain('EXPORT_STACK_NOT_FOUND');
    // CloudFormation resolves the CDK's BootstrapVersion parameter in the target account, as `cdk bootstrap` leaves it.
    const ssm = new SSMClient(clientConfig(TARGET, REGION));
    await ssm.send(
      new PutParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version', Value: '21', Type: 'String' }),
    );
    ssm.destroy();
    const exported = await cli(CI, 'export', 'Handed', ...inTarget);
    expect(exported.code, exported.stderr).toBe(0);
    const status = async (account: string) => {
      const cfn = new CloudFormationClient(clientConfig(account, REGION));
      try {
        return (await cfn.send(new DescribeStacksCommand({ StackName: 'Handed' }))).Stacks?.[0]?.StackStatus;
      } catch {
        return undefined;
      } finally {
        cfn.destroy();
      }
    };
    expect(await status(TARGET)).toBe('IMPORT_COMPLETE');
    expect(await status(CI)).toBeUndefined();
    expect(await queueExists(TARGET, REGION, 'Handed-Queue')).toBe(true);
  });

  it('refuses an account whose deploy role does not trust the caller, and an --account that is no account id', async () => {
    const refused = await cli(CI, 'state', 'list', '--account', UNTRUSTING);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [ROLE_NOT_ASSUMABLE]');
    expect(refused.stderr).toContain(`cdkd bootstrap aws://${UNTRUSTING}/${REGION} --trust ${CI}`);
    const invalid = await cli(CI, 'drift', '--account', 'prod');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('Error [ACCOUNT_INVALID]: --account prod is not an AWS account id.');
  });
});

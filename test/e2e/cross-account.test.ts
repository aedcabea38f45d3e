import { Stack, aws_s3_assets as assets, aws_sqs as sqs } from 'aws-cdk-lib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { sandboxAccounts } from '../helpers/accounts.js';
import { useSandbox } from '../helpers/sandbox.js';

// Three accounts on one sandbox (a 12-digit access key id selects the account): CI deploys
// into two targets, each bootstrapped trusting CI; a third is bootstrapped trusting nobody.
const CI = '111111111111';
const TARGET_A = '222222222222';
const TARGET_B = '333333333333';
const UNTRUSTING = '444444444444';

const sandbox = useSandbox();
const { cli, queueUrl, queueExists, keysIn } = sandboxAccounts(sandbox);

function twoAccountApp(): string {
  const assetDir = tempDir();
  writeFileSync(join(assetDir, 'hello.txt'), 'hello from CI');
  return synthesizeApp((app) => {
    const a = new Stack(app, 'InTargetA', { env: { account: TARGET_A, region: 'us-east-1' } });
    new sqs.Queue(a, 'Queue', { queueName: 'cross-a' });
    new assets.Asset(a, 'File', { path: assetDir });
    const b = new Stack(app, 'InTargetB', { env: { account: TARGET_B, region: 'eu-west-1' } });
    new sqs.Queue(b, 'Queue', { queueName: 'cross-b' });
  });
}

beforeAll(async () => {
  for (const [account, region] of [
    [TARGET_A, 'us-east-1'],
    [TARGET_B, 'eu-west-1'],
  ] as const) {
    const result = await cli(account, 'bootstrap', `aws://${account}/${region}`, '--trust', CI);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `Create role cdkd-hnb659fds-deploy-role-${account}-${region}: trusts ${CI}, ${account}`,
    );
  }
  const lone = await cli(UNTRUSTING, 'bootstrap');
  expect(lone.code, lone.stderr).toBe(0);
});

describe('deploy --all from CI credentials into two trusting accounts', () => {
  it("deploys each stack through its account's deploy role, state and assets in that account; a redeploy is a no-op; destroy removes both", async () => {
    const app = twoAccountApp();
    const deployed = await cli(CI, 'deploy', '--all', '-a', app);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await queueUrl(TARGET_A, 'us-east-1', 'cross-a')).toContain(`/${TARGET_A}/cross-a`);
    expect(await queueUrl(TARGET_B, 'eu-west-1', 'cross-b')).toContain(`/${TARGET_B}/cross-b`);

    // Each stack's state lives in its own account's bucket, none in CI's.
    expect((await keysIn(TARGET_A, `cdkd-state-${TARGET_A}`)).some((key) => key.includes('InTargetA'))).toBe(
      true,
    );
    expect(
      (await keysIn(TARGET_B, `cdkd-state-${TARGET_B}`, 'eu-west-1')).some((key) =>
        key.includes('InTargetB'),
      ),
    ).toBe(true);
    expect((await keysIn(TARGET_A, `cdkd-state-${TARGET_A}`)).some((key) => key.includes('InTargetB'))).toBe(
      false,
    );
    expect(await keysIn(CI, `cdkd-state-${CI}`)).toEqual([]);
    expect((await keysIn(TARGET_A, `cdkd-assets-${TARGET_A}-us-east-1`)).length).toBeGreaterThan(0);

    const again = await cli(CI, 'deploy', '--all', '-a', app);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('InTargetA (no changes)');
    expect(again.stdout).toContain('InTargetB (no changes)');

    const diff = await cli(CI, 'diff', '--all', '-a', app);
    expect(diff.code, diff.stderr).toBe(0);

    const destroyed = await cli(CI, 'destroy', '--all', '-a', app, '--yes');
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await queueExists(TARGET_A, 'us-east-1', 'cross-a')).toBe(false);
    expect(await queueExists(TARGET_B, 'eu-west-1', 'cross-b')).toBe(false);
  });

  it('refuses a stack in an account that does not trust CI, naming the role and the bootstrap that fixes it, with nothing changed', async () => {
    const app = synthesizeApp((cdkApp) => {
      const a = new Stack(cdkApp, 'StillFine', { env: { account: TARGET_A, region: 'us-east-1' } });
      new sqs.Queue(a, 'Queue', { queueName: 'refused-a' });
      const lone = new Stack(cdkApp, 'Untrusted', { env: { account: UNTRUSTING, region: 'us-east-1' } });
      new sqs.Queue(lone, 'Queue', { queueName: 'refused-lone' });
    });
    const refused = await cli(CI, 'deploy', '--all', '-a', app);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [ROLE_NOT_ASSUMABLE]');
    expect(refused.stderr).toContain(
      `arn:aws:iam::${UNTRUSTING}:role/cdkd-hnb659fds-deploy-role-${UNTRUSTING}-us-east-1`,
    );
    expect(refused.stderr).toContain(`cdkd bootstrap aws://${UNTRUSTING}/us-east-1 --trust ${CI}`);
    expect(await queueExists(UNTRUSTING, 'us-east-1', 'refused-lone')).toBe(false);
    expect(await queueExists(TARGET_A, 'us-east-1', 'refused-a')).toBe(false);
    expect(await keysIn(UNTRUSTING, `cdkd-state-${UNTRUSTING}`)).toEqual([]);
  });

  it('--role-arn acts through the named role: the stack deploys in its account, state there', async () => {
    const app = synthesizeApp((cdkApp) => {
      const a = new Stack(cdkApp, 'ThroughRoleArn', { env: { account: TARGET_A, region: 'us-east-1' } });
      new sqs.Queue(a, 'Queue', { queueName: 'role-arn-a' });
    });
    const role = `arn:aws:iam::${TARGET_A}:role/cdkd-hnb659fds-deploy-role-${TARGET_A}-us-east-1`;
    const deployed = await cli(CI, 'deploy', '-a', app, '--role-arn', role);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await queueExists(TARGET_A, 'us-east-1', 'role-arn-a')).toBe(true);
    const listed = await cli(CI, 'state', 'list', '--role-arn', role);
    expect(listed.stdout).toContain('ThroughRoleArn');
    expect((await cli(CI, 'destroy', '-a', app, '--role-arn', role, '--yes')).code).toBe(0);

    const untrusted = `arn:aws:iam::${UNTRUSTING}:role/cdkd-hnb659fds-deploy-role-${UNTRUSTING}-us-east-1`;
    const refused = await cli(CI, 'state', 'list', '--role-arn', untrusted);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `Error [ROLE_NOT_ASSUMABLE]: --role-arn ${untrusted} may not be assumed`,
    );
  });

  it('refuses an import of an export the app declares in another account before anything is published, locked or made', async () => {
    // A pre-synthesized assembly: the CDK refuses this reference at synth, cdkd refuses it too.
    const app = tempDir();
    writeAssembly(app, [
      {
        id: 'Exporter',
        environment: `aws://${TARGET_A}/us-east-1`,
        template: {
          Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'exported-a' } } },
          Outputs: {
            Arn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] }, Export: { Name: 'ExportedQueueArn' } },
          },
        },
      },
      {
        id: 'Importer',
        environment: `aws://${TARGET_B}/eu-west-1`,
        dependencies: ['Exporter'],
        template: {
          Resources: {
            Queue: {
              Type: 'AWS::SQS::Queue',
              Properties: {
                QueueName: 'importing-b',
                Tags: [{ Key: 'from', Value: { 'Fn::ImportValue': 'ExportedQueueArn' } }],
              },
            },
          },
        },
      },
    ]);
    const refused = await cli(CI, 'deploy', '--all', '-a', app);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `Error [CROSS_ENVIRONMENT_REFERENCE]: Stack Importer (aws://${TARGET_B}/eu-west-1) imports the export ExportedQueueArn of stack Exporter (aws://${TARGET_A}/us-east-1)`,
    );
    expect(await queueExists(TARGET_A, 'us-east-1', 'exported-a')).toBe(false);
    expect(await queueExists(TARGET_B, 'eu-west-1', 'importing-b')).toBe(false);
    expect((await keysIn(TARGET_A, `cdkd-state-${TARGET_A}`)).some((key) => key.includes('Exporter'))).toBe(
      false,
    );
  });
});

import { CreateRoleCommand, DeleteRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { Stack, aws_s3_assets as assets } from 'aws-cdk-lib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { sandboxAccounts } from '../helpers/accounts.js';
import { useSandbox } from '../helpers/sandbox.js';

// A stack in another account publishes its file assets through the role its asset manifest
// names (the CDK's file-publishing role, `cdk bootstrap --trust CI` makes it trust CI) when
// that role can be assumed, else through cdkd's deploy role there; --verbose says which.
const CI = '111111111111';
const TARGET = '222222222222';
const REGION = 'us-east-1';
const FILE_ROLE = `cdk-hnb659fds-file-publishing-role-${TARGET}-${REGION}`;
const FILE_ROLE_ARN = `arn:aws:iam::${TARGET}:role/${FILE_ROLE}`;
const DEPLOY_ROLE_ARN = `arn:aws:iam::${TARGET}:role/cdkd-hnb659fds-deploy-role-${TARGET}-${REGION}`;

const sandbox = useSandbox();
const { cli, clientConfig, keysIn } = sandboxAccounts(sandbox);
let iam: IAMClient;

function assetApp(content: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'file.txt'), content);
  return synthesizeApp((app) => {
    const stack = new Stack(app, 'WithAsset', { env: { account: TARGET, region: REGION } });
    new assets.Asset(stack, 'File', { path: dir });
  });
}

beforeAll(async () => {
  const bootstrapped = await cli(TARGET, 'bootstrap', `aws://${TARGET}/${REGION}`, '--trust', CI);
  expect(bootstrapped.code, bootstrapped.stderr).toBe(0);
  iam = new IAMClient(clientConfig(TARGET, REGION));
});

afterAll(() => iam.destroy());

describe("file assets of a stack in another account go through the asset manifest's role when it can be assumed", () => {
  it('publishes through the CDK file-publishing role while it exists, through the deploy role once it is gone', async () => {
    await iam.send(
      new CreateRoleCommand({
        RoleName: FILE_ROLE,
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { AWS: CI }, Action: 'sts:AssumeRole' }],
        }),
      }),
    );
    const through = await cli(CI, 'publish-assets', '-a', assetApp('first'), '--verbose');
    expect(through.code, through.stderr).toBe(0);
    expect(through.stdout + through.stderr).toContain(
      `WithAsset: file assets published through the asset manifest's ${FILE_ROLE_ARN}.`,
    );
    const first = await keysIn(TARGET, `cdkd-assets-${TARGET}-${REGION}`);
    expect(first.length).toBe(1);

    await iam.send(new DeleteRoleCommand({ RoleName: FILE_ROLE }));
    const fallback = await cli(CI, 'publish-assets', '-a', assetApp('second'), '--verbose');
    expect(fallback.code, fallback.stderr).toBe(0);
    expect(fallback.stdout + fallback.stderr).toContain(
      `WithAsset: file assets published through ${DEPLOY_ROLE_ARN}: the asset manifest's ${FILE_ROLE_ARN} could not be assumed`,
    );
    expect((await keysIn(TARGET, `cdkd-assets-${TARGET}-${REGION}`)).length).toBe(2);

    // Without --verbose the choice is not shown.
    const quiet = await cli(CI, 'publish-assets', '-a', assetApp('third'));
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout + quiet.stderr).not.toContain('published through');
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The rest of the AWS CLI's profile keys for an assumed role: `external_id` (the role's trust
// policy demands it) and `credential_source` (the source credentials from the environment).
const CI = '111111111111';
const TARGET = '222222222222';
const ROLE = `arn:aws:iam::${TARGET}:role/partner-access`;

const sandbox = useSandbox();
let home = '';

beforeAll(async () => {
  const iam = new IAMClient({
    endpoint: sandbox.current.url,
    region: 'us-east-1',
    credentials: { accessKeyId: TARGET, secretAccessKey: 's' },
  });
  await iam.send(
    new CreateRoleCommand({
      RoleName: 'partner-access',
      AssumeRolePolicyDocument: JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: `arn:aws:iam::${CI}:root` },
            Action: 'sts:AssumeRole',
            Condition: { StringEquals: { 'sts:ExternalId': 'partner-7' } },
          },
        ],
      }),
    }),
  );
  iam.destroy();
  home = tempDir();
  mkdirSync(join(home, '.aws'));
  writeFileSync(
    join(home, '.aws', 'config'),
    [
      '[profile ci]',
      `credential_process = ${process.execPath} -e "process.stdout.write(JSON.stringify({Version:1,AccessKeyId:'${CI}',SecretAccessKey:'s'}))"`,
      '[profile partner]',
      `role_arn = ${ROLE}`,
      'source_profile = ci',
      'external_id = partner-7',
      '[profile partner-wrong-id]',
      `role_arn = ${ROLE}`,
      'source_profile = ci',
      'external_id = someone-else',
      '[profile partner-from-env]',
      `role_arn = ${ROLE}`,
      'credential_source = Environment',
      'external_id = partner-7',
      '',
    ].join('\n'),
  );
  writeFileSync(join(home, '.aws', 'credentials'), '');
});

const profileEnv = (keys: { id: string; secret: string }) => ({
  ...sandboxEnv(sandbox.current.url),
  AWS_ACCESS_KEY_ID: keys.id,
  AWS_SECRET_ACCESS_KEY: keys.secret,
  HOME: home,
  AWS_CONFIG_FILE: join(home, '.aws', 'config'),
  AWS_SHARED_CREDENTIALS_FILE: join(home, '.aws', 'credentials'),
});
const NO_KEYS = { id: '', secret: '' };
const accountOf = (stdout: string) => /in account (\d{12})/.exec(stdout)?.[1];

describe('profiles assuming a role with external_id and credential_source', () => {
  it('external_id is sent with the assume: the role demanding it is assumed', async () => {
    const result = await runCli(['bootstrap', '--show-plan', '--profile', 'partner'], {
      env: profileEnv(NO_KEYS),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(accountOf(result.stdout)).toBe(TARGET);
  });

  it('a wrong external_id is refused as the role refusing, naming the profile', async () => {
    const result = await runCli(['bootstrap', '--show-plan', '--profile', 'partner-wrong-id'], {
      env: profileEnv(NO_KEYS),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [ROLE_NOT_ASSUMABLE]');
    expect(result.stderr).toContain('partner-wrong-id');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('credential_source = Environment assumes the role with the keys in the environment', async () => {
    const result = await runCli(['bootstrap', '--show-plan', '--profile', 'partner-from-env'], {
      env: profileEnv({ id: CI, secret: 's' }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(accountOf(result.stdout)).toBe(TARGET);
  });
});

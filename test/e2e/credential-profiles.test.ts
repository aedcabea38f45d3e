import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { runCliOnTty } from '../helpers/tty-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Credentials as the AWS CLI resolves them, from a config file this test writes: a
// credential_process, a role assumed from a source profile, MFA, SSO, and the failures of each.
const CI = '111111111111';
const TARGET = '222222222222';
const DEPLOY_ROLE = `arn:aws:iam::${TARGET}:role/cdkd-hnb659fds-deploy-role-${TARGET}-us-east-1`;

const sandbox = useSandbox();
let home = '';

const printCredentials = (account: string) =>
  `${process.execPath} -e "process.stdout.write(JSON.stringify({Version:1,AccessKeyId:'${account}',SecretAccessKey:'s'}))"`;

beforeAll(async () => {
  home = tempDir();
  mkdirSync(join(home, '.aws'));
  writeFileSync(
    join(home, '.aws', 'config'),
    [
      '[profile ci]',
      `credential_process = ${printCredentials(CI)}`,
      '[profile target]',
      `role_arn = ${DEPLOY_ROLE}`,
      'source_profile = ci',
      '[profile with-mfa]',
      `role_arn = ${DEPLOY_ROLE}`,
      'source_profile = ci',
      `mfa_serial = arn:aws:iam::${CI}:mfa/ci-person`,
      '[profile broken-process]',
      `credential_process = ${process.execPath} -e "process.exit(3)"`,
      '[profile sso]',
      'sso_session = corp',
      `sso_account_id = ${TARGET}`,
      'sso_role_name = Admin',
      '[sso-session corp]',
      'sso_start_url = https://example.awsapps.com/start',
      'sso_region = us-east-1',
      '',
    ].join('\n'),
  );
  writeFileSync(join(home, '.aws', 'credentials'), '');
  const trusted = await runCli(['bootstrap', '--trust', CI], {
    env: { ...sandboxEnv(sandbox.current.url), AWS_ACCESS_KEY_ID: TARGET },
  });
  expect(trusted.code, trusted.stderr).toBe(0);
});

/** The sandbox's endpoint, no keys in the environment: credentials come from the profile. */
const profileEnv = (extra: Record<string, string> = {}) => ({
  ...sandboxEnv(sandbox.current.url),
  AWS_ACCESS_KEY_ID: '',
  AWS_SECRET_ACCESS_KEY: '',
  HOME: home,
  AWS_CONFIG_FILE: join(home, '.aws', 'config'),
  AWS_SHARED_CREDENTIALS_FILE: join(home, '.aws', 'credentials'),
  ...extra,
});
const accountOf = (stdout: string) => /in account (\d{12})/.exec(stdout)?.[1];

describe('--profile and AWS_PROFILE', () => {
  it('a credential_process profile acts in the account its credentials select', async () => {
    const result = await runCli(['bootstrap', '--show-plan', '--profile', 'ci'], { env: profileEnv() });
    expect(result.code, result.stderr).toBe(0);
    expect(accountOf(result.stdout)).toBe(CI);
  });

  it('role_arn + source_profile assumes the role from the source profile (flag and AWS_PROFILE alike)', async () => {
    const flag = await runCli(['bootstrap', '--show-plan', '--profile', 'target'], { env: profileEnv() });
    expect(flag.code, flag.stderr).toBe(0);
    expect(accountOf(flag.stdout)).toBe(TARGET);
    const fromEnv = await runCli(['bootstrap', '--show-plan'], {
      env: profileEnv({ AWS_PROFILE: 'target' }),
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(accountOf(fromEnv.stdout)).toBe(TARGET);
  });

  it.each([
    ['nosuch', 'PROFILE_NOT_FOUND', 'aws configure list-profiles'],
    ['broken-process', 'CREDENTIAL_PROCESS_FAILED', 'credential_process'],
    ['with-mfa', 'MFA_CODE_REQUIRED', 'no terminal to ask for it on'],
    ['sso', 'SSO_SESSION_EXPIRED', 'aws sso login --profile sso'],
  ])('profile %s off a terminal is refused as %s, saying what fixes it', async (profile, code, fix) => {
    const result = await runCli(['bootstrap', '--show-plan', '--profile', profile], { env: profileEnv() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error [${code}]`);
    expect(result.stderr).toContain(fix);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a profile with mfa_serial asks for the code on a terminal and assumes the role with it', async () => {
    const result = await runCliOnTty(['bootstrap', '--show-plan', '--profile', 'with-mfa'], {
      env: profileEnv(),
      prompt: 'MFA code for',
      answer: '123456',
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(`MFA code for arn:aws:iam::${CI}:mfa/ci-person (profile with-mfa)`);
    expect(accountOf(result.stdout)).toBe(TARGET);
  });

  it('a wrong MFA code is refused by STS, named as the role refusing, nothing changed', async () => {
    const result = await runCliOnTty(['bootstrap', '--show-plan', '--profile', 'with-mfa'], {
      env: profileEnv(),
      prompt: 'MFA code for',
      answer: '12',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Error [ROLE_NOT_ASSUMABLE]: The role of profile with-mfa refused the credentials',
    );
    expect(result.stdout).toContain('MultiFactorAuthentication failed');
  });
});

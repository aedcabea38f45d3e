import {
  GetRoleCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  ListRoleTagsCommand,
} from '@aws-sdk/client-iam';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const ACCOUNT = '555555555555';
const ROLE = `cdkd-team1-deploy-role-${ACCOUNT}-us-east-1`;
const sandbox = useSandbox();
const cli = (...args: string[]) =>
  runCli(args, { env: { ...sandboxEnv(sandbox.current.url), AWS_ACCESS_KEY_ID: ACCOUNT } });
const iam = () =>
  new IAMClient({
    endpoint: sandbox.current.url,
    region: 'us-east-1',
    credentials: { accessKeyId: ACCOUNT, secretAccessKey: 's' },
  });

describe('cdkd bootstrap: the deploy role', () => {
  it('--show-plan changes nothing; a run makes the role as the flags say; a re-run is up to date; a flag given again converges', async () => {
    const flags = ['--qualifier', 'team1', '--trust', '111111111111', '--tags', 'team=a'];
    const planned = await cli('bootstrap', `aws://${ACCOUNT}/us-east-1`, ...flags, '--show-plan');
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain(`Would create role ${ROLE}: trusts 111111111111, ${ACCOUNT}`);
    expect(planned.stdout).toContain('would be created');
    await expect(iam().send(new GetRoleCommand({ RoleName: ROLE }))).rejects.toThrow();

    const made = await cli(
      'bootstrap',
      ...flags,
      '--execution-policies',
      'arn:aws:iam::aws:policy/PowerUserAccess',
      '--termination-protection',
    );
    expect(made.code, made.stderr).toBe(0);
    const attached = await iam().send(new ListAttachedRolePoliciesCommand({ RoleName: ROLE }));
    expect(attached.AttachedPolicies?.map((policy) => policy.PolicyArn)).toEqual([
      'arn:aws:iam::aws:policy/PowerUserAccess',
    ]);
    const tags = await iam().send(new ListRoleTagsCommand({ RoleName: ROLE }));
    expect(tags.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'team', Value: 'a' },
        { Key: 'cdkd:termination-protection', Value: 'true' },
      ]),
    );

    const again = await cli('bootstrap', '--qualifier', 'team1');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`Role ${ROLE}: up to date`);

    const narrowed = await cli('bootstrap', '--qualifier', 'team1', '--trust', '222222222222');
    expect(narrowed.stdout).toContain(
      `Update role ${ROLE}: trust 111111111111, ${ACCOUNT} -> 222222222222, ${ACCOUNT}`,
    );
  });

  it.each([
    [['--trust', '12345'], 'BOOTSTRAP_OPTION_INVALID', '12-digit'],
    [['--qualifier', 'Bad_Q'], 'BOOTSTRAP_OPTION_INVALID', 'qualifier'],
    [['--execution-policies', 'AdministratorAccess'], 'BOOTSTRAP_OPTION_INVALID', 'managed policy ARN'],
    [['aws://999999999999/us-east-1'], 'BOOTSTRAP_TARGET_INVALID', 'credentials for 999999999999'],
    [['somewhere'], 'BOOTSTRAP_TARGET_INVALID', 'aws://ACCOUNT/REGION'],
  ])('%j is refused as %s, nothing made', async (args, code, words) => {
    const result = await cli('bootstrap', '--qualifier', 'refused', ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error [${code}]`);
    expect(result.stderr).toContain(words);
    await expect(
      iam().send(new GetRoleCommand({ RoleName: `cdkd-refused-deploy-role-${ACCOUNT}-us-east-1` })),
    ).rejects.toThrow();
  });
});

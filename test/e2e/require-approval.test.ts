import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack, Tags } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { runCliOnTty } from '../helpers/tty-cli.js';

/**
 * `cdkd deploy --require-approval` and the property-level `cdkd diff`, through the built CLI
 * against the sandbox: the default (broadening) refuses off a TTY before anything is touched,
 * asks on one (driven through a pseudo-terminal), and `--yes` approves.
 */
const sandbox = useSandbox();
// The helper's env turns approval off for other tests; here the default applies unless a test says.
const env = (extra: Record<string, string> = {}) => ({
  ...sandboxEnv(sandbox.current.url),
  CDKD_REQUIRE_APPROVAL: '',
  ...extra,
});
const cli = (args: string[], extra?: Record<string, string>) => runCli(args, { env: env(extra) });

function app(version: 1 | 2 | 3): string {
  return synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'Review', { analyticsReporting: false });
    const statement =
      version === 1
        ? new PolicyStatement({ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::review-data/*'] })
        : new PolicyStatement({ actions: ['s3:*'], resources: ['*'] });
    new Role(stack, 'Reader', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: { Read: new PolicyDocument({ statements: [statement] }) },
    });
    const parameter = new StringParameter(stack, 'Setting', {
      parameterName: version === 1 ? '/review/setting' : '/review/setting-2',
      stringValue: 'on',
    });
    if (version === 3) Tags.of(parameter).add('team', 'blue');
  });
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

const REFUSED =
  /APPROVAL_REQUIRED.*Review widens permissions, which --require-approval broadening stops for/s;

describe('cdkd deploy --require-approval', () => {
  it('refuses off a TTY before touching anything, then deploys with --yes', async () => {
    const v1 = app(1);
    const diff = await cli(['diff', '-a', v1]);
    expect(diff.code, diff.stderr).toBe(0);
    // Never deployed: diffed against nothing, every property added.
    expect(diff.stdout).toMatch(
      /\+ {3}Setting\w+ \(AWS::SSM::Parameter\): new in the template\n {4}\+ Name: "\/review\/setting"\n/,
    );
    expect(diff.stdout).toMatch(
      /│ \+ │ arn:aws:s3:::review-data\/\* +│ Allow +│ s3:GetObject +│ AWS:\$\{Reader\w+\} +│/,
    );

    const refused = await cli(['deploy', '-a', v1]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(REFUSED);
    expect(refused.stderr).toContain('--require-approval never');
    expect(refused.stderr).toContain('IAM Statement Changes');
    expect((await cli(['state', 'list'])).stdout).toContain('No stacks recorded');
    expect(await liveResources(sandbox.current.url)).toEqual([]);

    const approved = await cli(['deploy', '--yes', '-a', v1]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(
      'Deploy Review, widening its permissions as listed? (approved by --yes)',
    );
    expect((await cli(['diff', '--fail', '-a', v1])).code).toBe(0);
  });

  it('shows old → new per property, the replacement and the widened statement; refuses, then asks on a TTY', async () => {
    const v2 = app(2);
    const diff = await cli(['diff', '-a', v2]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(
      /-\/\+ Setting\w+ \(AWS::SSM::Parameter\): .*\n {4}replaced because Name is create-only per .*: a name change\n {4}~ Name: "\/review\/setting" → "\/review\/setting-2" \(forces replacement\)\n/,
    );
    expect(diff.stdout).toContain(
      '~ Policies[0].PolicyDocument.Statement[0].Action: "s3:GetObject" → "s3:*"',
    );
    expect(diff.stdout).toMatch(/│ \+ │ \* +│ Allow +│ s3:\* +│ AWS:\$\{Reader\w+\} +│/);
    expect(diff.stdout).toMatch(/│ - │ arn:aws:s3:::review-data\/\* +│ Allow +│ s3:GetObject +│/);

    const json = JSON.parse((await cli(['diff', '--json', '-a', v2])).stdout).Review;
    expect(json.security.broadened).toBe(true);
    const setting = json.changes.find((c: { type: string }) => c.type === 'AWS::SSM::Parameter');
    expect(setting).toMatchObject({
      kind: 'replace',
      replacement: [{ property: 'Name', why: 'name-change' }],
      properties: expect.arrayContaining([
        {
          path: ['Name'],
          kind: 'changed',
          old: '/review/setting',
          new: '/review/setting-2',
          forcesReplacement: true,
        },
      ]),
    });

    const refused = await cli(['deploy', '-a', v2]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(REFUSED);
    // Nothing changed: the recorded state still differs from v2 as before.
    expect((await cli(['diff', '-a', v2])).stdout).toBe(diff.stdout);

    const prompt = 'Deploy Review, widening its permissions as listed? [y/N]';
    const declined = await runCliOnTty(['deploy', '-a', v2], { env: env(), prompt, answer: 'n' });
    expect(declined.stdout).toContain('IAM Statement Changes');
    expect(declined.stdout).toContain('Cancelled; nothing was changed.');
    expect(declined.code).toBe(1);
    expect((await cli(['diff', '-a', v2])).stdout).toBe(diff.stdout);

    const accepted = await runCliOnTty(['deploy', '-a', v2], { env: env(), prompt, answer: 'y' });
    expect(accepted.code, accepted.stdout).toBe(0);
    expect((await cli(['diff', '--fail', '-a', v2])).code).toBe(0);
  });

  it('a run of several stacks is refused before any of them deploys', async () => {
    const assembly = synthesizeApp((cdk) => {
      new StringParameter(new Stack(cdk, 'First', { analyticsReporting: false }), 'Plain', {
        stringValue: 'first',
      });
      const second = new Stack(cdk, 'Second', { analyticsReporting: false });
      new Role(second, 'Wide', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    });
    const refused = await cli(['deploy', '--all', '-a', assembly]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/APPROVAL_REQUIRED.*Second widens permissions/s);
    const list = (await cli(['state', 'list'])).stdout;
    expect(list).not.toContain('First');
    expect(list).not.toContain('Second');
  });

  it('asks for any change under any-change (flag, env, cdk.json; the flag wins), not under broadening for a tag', async () => {
    const v3 = app(3);
    const anyChange = await cli(['deploy', '--require-approval', 'any-change', '-a', v3]);
    expect(anyChange.code).toBe(1);
    expect(anyChange.stderr).toMatch(
      /APPROVAL_REQUIRED.*Review changes resources, which --require-approval any-change stops for/s,
    );
    // No security change: the property diff is what is shown.
    expect(anyChange.stderr).toMatch(
      /~ {3}Setting\w+ \(AWS::SSM::Parameter\): changed: Tags\n {4}\+ Tags: \{"team":"blue"\}\n/,
    );
    const fromEnv = await cli(['deploy', '-a', v3], { CDKD_REQUIRE_APPROVAL: 'any-change' });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain('APPROVAL_REQUIRED');
    const project = mkdtempSync(join(tmpdir(), 'cdkd-approval-'));
    writeFileSync(join(project, 'cdk.json'), JSON.stringify({ requireApproval: 'any-change' }));
    const fromConfig = await runCli(['deploy', '-a', v3], { env: env(), cwd: project });
    expect(fromConfig.code).toBe(1);
    expect(fromConfig.stderr).toContain('APPROVAL_REQUIRED');
    const flagWins = await runCli(['deploy', '--require-approval', 'broadening', '-a', v3], {
      env: env(),
      cwd: project,
    });
    expect(flagWins.code, flagWins.stderr).toBe(0);
    rmSync(project, { recursive: true, force: true });
    expect((await cli(['diff', '--fail', '-a', v3])).code).toBe(0);
  });
});

import { CfnOutput, CfnParameter, NestedStack, Stack, aws_sqs as sqs } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Small CDK apps synthesized with aws-cdk-lib, with the settings a new user has, deployed
// through the built CLI: the papercuts real apps hit on their first deploy.
const sandbox = useSandbox();
const env = (extra: Record<string, string> = {}) => ({ ...sandboxEnv(sandbox.current.url), ...extra });

async function recordedTypes(stack: string): Promise<string[]> {
  const result = await runCli(['state', 'show', stack, '--json'], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  return Object.values(JSON.parse(result.stdout).resources as Record<string, { type: string }>)
    .map((record) => record.type)
    .sort();
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

describe('a nested stack with default settings (version reporting on)', () => {
  it("deploys, CDK's metadata record skipped in the nested template as at top level", async () => {
    let nestedId = '';
    const assembly = synthesizeApp((app) => {
      const parent = new Stack(app, 'WithNested');
      new sqs.Queue(parent, 'Outer');
      const child = new NestedStack(parent, 'Child');
      new sqs.Queue(child, 'Inner');
      nestedId = parent.resolve(child.nestedStackResource!.logicalId);
    });
    const result = await runCli(['deploy', '-a', assembly], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(await recordedTypes('WithNested')).toEqual(['AWS::CloudFormation::Stack', 'AWS::SQS::Queue']);
    expect(await recordedTypes(`WithNested/${nestedId}`)).toEqual(['AWS::SQS::Queue']);
    expect((await runCli(['destroy', '-a', assembly, '--yes'], { env: env() })).code).toBe(0);
  });
});

describe('--parameters across the selected stacks', () => {
  const assembly = () =>
    synthesizeApp((app) => {
      for (const name of ['ParamsWeb', 'ParamsDb']) {
        const stack = new Stack(app, name);
        const env = new CfnParameter(stack, 'Env');
        new CfnOutput(stack, 'EnvOut', { value: env.valueAsString });
      }
      new CfnParameter(new Stack(app, 'ParamsDb2'), 'Size');
    });

  it('names every missing parameter of every selected stack in one error, before anything is deployed', async () => {
    const result = await runCli(['deploy', '--all', '-a', assembly()], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error [PARAMETER_MISSING]: Parameters with no value and no Default: ParamsWeb: Env; ParamsDb: Env; ParamsDb2: Size.',
    );
    const list = await runCli(['state', 'list', '--json'], { env: env() });
    expect(JSON.parse(list.stdout).stacks).toEqual([]);
  });

  it('a plain NAME=value goes to every stack declaring NAME, ignored with a note for the others', async () => {
    const result = await runCli(
      ['deploy', '--all', '-a', assembly(), '--parameters', 'Env=prod', '--parameters', 'ParamsDb2:Size=3'],
      { env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('ParamsWeb.EnvOut = prod');
    expect(result.stdout).toContain('ParamsDb.EnvOut = prod');
    expect(result.stderr).toContain(
      '--parameters Env: ignored for ParamsDb2, which declares no parameter Env.',
    );
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Bad input at the command line: one clear line and a non-zero exit, before anything is touched.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
let counter = 0;

function assemblyFor(stackName: string) {
  const dir = tempDir();
  writeAssembly(dir, [
    {
      id: stackName,
      template: {
        Resources: { Queue: { Type: 'AWS::SQS::Queue' } },
        Outputs: { QueueArn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } } },
      },
    },
  ]);
  return dir;
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

describe('a commander usage error', () => {
  it.each([
    [['deploy', '--bogus'], "error: unknown option '--bogus'"],
    [['force-unlock'], "error: missing required argument 'stack'"],
    [['no-such-command'], "error: unknown command 'no-such-command'"],
  ])('%j prints the one error line and a --help hint, not the help text', async (args, line) => {
    const result = await runCli(args, { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${line}\n(run with --help for usage)\n`);
  });
});

describe('-c without a value', () => {
  it('is warned about as the CDK CLI does, also for a synthesized assembly', async () => {
    const result = await runCli(['synth', '-a', assemblyFor('Ctx'), '-c', 'novalue'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Context argument is not an assignment (key=value): novalue');
  });
});

describe('an invalid region', () => {
  it.each([
    [['--region', 'not a region'], {}, '"not a region" (from --region)'],
    [[], { AWS_REGION: 'Bad_Region' }, '"Bad_Region" (from AWS_REGION)'],
  ])('%j %j is reported as an invalid region, not as missing credentials', async (flags, extra, named) => {
    const result = await runCli(['deploy', '-a', assemblyFor(`Region${++counter}`), ...flags], {
      env: { ...env(), ...extra },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error [REGION_INVALID]: ${named} is not an AWS region name.`);
    expect(result.stderr).not.toContain('CREDENTIALS_UNAVAILABLE');
  });
});

describe('--outputs-file', () => {
  it('creates a missing directory and writes the outputs there', async () => {
    const stackName = `Outputs${++counter}`;
    const file = join(tempDir(), 'not', 'yet', 'outputs.json');
    const result = await runCli(['deploy', '-a', assemblyFor(stackName), '--outputs-file', file], {
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const outputs = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    expect(outputs[stackName]!.QueueArn).toMatch(/^arn:aws:sqs:us-east-1:\d+:/);
  });

  it('naming a directory is refused before anything is deployed', async () => {
    const stackName = `OutputsDir${++counter}`;
    const dir = tempDir();
    const result = await runCli(['deploy', '-a', assemblyFor(stackName), '--outputs-file', dir], {
      env: env(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error [OUTPUTS_FILE_INVALID]: --outputs-file ${dir} is a directory.`);
    const state = await runCli(['state', 'show', stackName], { env: env() });
    expect(state.code).not.toBe(0);
    expect(existsSync(join(dir, 'outputs.json'))).toBe(false);
  });
});

describe('import --migrate-from-cloudformation with resources named another way', () => {
  it.each([
    [['--resource', 'Q=x'], '--resource'],
    [['--resource-mapping-inline', '{}'], '--resource-mapping-inline'],
    [['--record-resource-mapping', 'm.json'], '--record-resource-mapping'],
  ])('refuses %j before reading anything', async (flags, named) => {
    const args = ['import', 'Legacy', '--migrate-from-cloudformation', '-a', assemblyFor('Legacy'), ...flags];
    const result = await runCli(args, { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Error [IMPORT_FLAGS_CONFLICT]: ${named} cannot be given with --migrate-from-cloudformation`,
    );
  });
});

describe('sandbox --latency-profile', () => {
  it.each([
    [['--latency-profile', 'azure'], "--latency-profile must be one of aws, flat, none, got 'azure'"],
    [
      ['--latency-profile', 'aws', '--latency-time-scale', '0'],
      "--latency-time-scale must be a positive number, got '0'",
    ],
  ])('refuses %j before listening', async (flags, message) => {
    const result = await runCli(['sandbox', '--port', '0', ...flags]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error [SANDBOX_INVALID_OPTION]: ${message}`);
  });
});

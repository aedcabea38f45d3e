import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { flattenNestedStacks, walkNestedStacks } from '../../src/assembly/nested-stacks.js';
import { readAssembly } from '../../src/assembly/read-assembly.js';
import type { CloudAssembly } from '../../src/assembly/types.js';
import { tempDir, writeAssembly } from './helpers.js';

const repo = resolve(import.meta.dirname, '../..');
const exampleApp = join(repo, 'examples/app');
/** Absolute, so the CLI starts from any working directory. */
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** No credentials to find: STS fails fast against a closed port, IMDS is off. */
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_ACCESS_KEY_ID: 'x',
  AWS_SECRET_ACCESS_KEY: 'x',
  AWS_REGION: 'us-east-1',
  AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

function cdkd(args: string[], cwd = exampleApp): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', tsx, join(repo, 'src/cli/main.ts'), ...args],
      { cwd, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function expectCleanFailure(result: { code: number; stderr: string }, code: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`Error [${code}]`);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

describe('cdkd synth / list on examples/app (real aws-cdk-lib)', () => {
  let out: string;
  let synth: { code: number; stdout: string; stderr: string };
  let assembly: CloudAssembly;

  // One real synth for the whole block (each costs seconds); the rest read its output.
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'cdkd-example-'));
    synth = await cdkd(['synth', '--no-validation', '-o', out]);
    assembly = readAssembly(out);
  });

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('synthesizes both stacks and prints them with environment and resource counts', () => {
    expect(synth.code).toBe(0);
    expect(synth.stdout).toMatch(
      /^CdkdDemoStorage {2}aws:\/\/unknown-account\/unknown-region {2}\d+ resources, 1 nested stack/m,
    );
    expect(synth.stdout).toMatch(
      /^CdkdDemoConsumer {2}aws:\/\/unknown-account\/unknown-region {2}\d+ resources?/m,
    );
    expect(synth.stdout).toContain('Annotations: 0 errors, 0 warnings, 0 info');
  });

  it('finds the nested template, the Lambda asset and the cross-stack export/import', () => {
    const storage = assembly.stacks.find((s) => s.stackName === 'CdkdDemoStorage');
    const consumer = assembly.stacks.find((s) => s.stackName === 'CdkdDemoConsumer');
    if (!storage || !consumer) throw new Error('stacks missing');
    expect(consumer.dependencies).toEqual(['CdkdDemoStorage']);

    const nested = flattenNestedStacks(
      walkNestedStacks(
        { name: storage.stackName, templateFile: storage.templateFile, template: storage.template },
        { outputDir: assembly.directory },
      ),
    );
    expect(nested).toHaveLength(1);
    expect(Object.values(nested[0]?.template.Resources ?? {}).map((r) => r.Type)).toEqual(
      expect.arrayContaining(['AWS::SQS::Queue', 'AWS::SNS::Topic']),
    );

    const zips = storage.assetManifests.flatMap((m) => m.files).filter((f) => f.packaging === 'zip');
    expect(zips).toHaveLength(1);
    expect(zips[0]?.absoluteSourcePath).toBe(join(out, zips[0]?.sourcePath ?? ''));
    expect(zips[0]?.destinations[0]?.objectKey).toBe(`${zips[0]?.hash}.zip`);

    const exports = Object.values(
      (storage.template.Outputs ?? {}) as Record<string, { Export?: { Name: string } }>,
    )
      .map((o) => o.Export?.Name)
      .filter(Boolean);
    const consumerText = JSON.stringify(consumer.template);
    expect(exports.length).toBeGreaterThan(0);
    for (const name of exports) expect(consumerText).toContain(`{"Fn::ImportValue":"${name}"}`);
  });

  it('lists the stacks as JSON, with dependencies and environments', async () => {
    const plain = await cdkd(['list', '-a', out, '--json']);
    expect(JSON.parse(plain.stdout)).toEqual(['CdkdDemoStorage', 'CdkdDemoConsumer']);
    const long = await cdkd(['ls', '-a', out, '--long', '--show-dependencies', '--json']);
    expect(JSON.parse(long.stdout)).toEqual([
      expect.objectContaining({ id: 'CdkdDemoStorage', dependencies: [] }),
      expect.objectContaining({
        id: 'CdkdDemoConsumer',
        name: 'CdkdDemoConsumer',
        environment: {
          account: 'unknown-account',
          region: 'unknown-region',
          name: 'aws://unknown-account/unknown-region',
        },
        dependencies: ['CdkdDemoStorage'],
      }),
    ]);
  });

  it("prints one selected stack's template as YAML on stdout", async () => {
    const result = await cdkd(['synth', '-a', out, 'CdkdDemoConsumer']);
    expect(result.code).toBe(0);
    const template = parse(result.stdout) as { Resources: Record<string, { Type: string }> };
    expect(Object.values(template.Resources).map((r) => r.Type)).toContain('AWS::IAM::Role');
    expect(result.stdout).toContain('Fn::ImportValue');
    expect(result.stderr).toContain('CdkdDemoConsumer  aws://unknown-account/unknown-region');
  });
});

describe.concurrent('cdkd synth failures', () => {
  it('reports a failing app with the tail of its stderr, exit 1', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'app.cjs'), 'console.error("the app broke here"); process.exit(3);');
    const result = await cdkd(['synth', '-a', 'node app.cjs'], cwd);
    expectCleanFailure(result, 'SYNTH_FAILED');
    expect(result.stderr).toMatch(/exited with code 3:\n {2}the app broke here/);
  });

  it('reports --app naming a missing directory', async () => {
    const cwd = tempDir();
    expectCleanFailure(await cdkd(['synth', '-a', join(cwd, 'no/such/cdk.out')], cwd), 'APP_NOT_FOUND');
  });

  it('reports a malformed manifest.json', async () => {
    const cwd = tempDir();
    writeAssembly(join(cwd, 'cdk.out'), [{ id: 'A' }]);
    writeFileSync(join(cwd, 'cdk.out', 'manifest.json'), '{"version": "55.0.0", "artifacts": ');
    expectCleanFailure(await cdkd(['list', '-a', 'cdk.out'], cwd), 'ASSEMBLY_MALFORMED');
  });

  it('refuses an assembly with an error annotation, and warnings under --strict', async () => {
    const cwd = tempDir();
    const warn = { '/A/Bucket': [{ type: 'aws:cdk:warning', data: 'careful' }] };
    writeAssembly(join(cwd, 'warn.out'), [{ id: 'A', metadata: warn }]);
    const lenient = await cdkd(['synth', '-a', 'warn.out', '-q'], cwd);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('[Warning at /A/Bucket] careful');
    expectCleanFailure(await cdkd(['synth', '-a', 'warn.out', '--strict'], cwd), 'ASSEMBLY_HAS_WARNINGS');

    writeAssembly(join(cwd, 'error.out'), [
      { id: 'A', metadata: { '/A/Q': [{ type: 'aws:cdk:error', data: 'bad' }] } },
    ]);
    expectCleanFailure(await cdkd(['synth', '-a', 'error.out'], cwd), 'ASSEMBLY_HAS_ERRORS');
  });
});

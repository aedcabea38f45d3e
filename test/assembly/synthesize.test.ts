import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ContextLookups, ContextQuery } from '../../src/assembly/missing-context.js';
import { synthesize, type SynthesizeOptions } from '../../src/assembly/synthesize.js';
import { tempDir, writeAssembly, writeJson } from './helpers.js';

/**
 * A stand-in CDK app: records what it was given, writes a one-stack assembly and
 * reports as missing each `app-spec.json` entry its context lacks.
 */
const FAKE_APP = `
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const out = process.env.CDK_OUTDIR;
const context = JSON.parse(process.env.CDK_CONTEXT_JSON);
const spec = JSON.parse(readFileSync('app-spec.json', 'utf8'));
const env = (name) => process.env[name] ?? null;
appendFileSync('runs.jsonl', JSON.stringify({ out, context, account: env('CDK_DEFAULT_ACCOUNT'),
  region: env('CDK_DEFAULT_REGION'), validation: env('CDK_VALIDATION'), asm: env('CDK_CLI_ASM_VERSION') }) + '\\n');
const missing = spec.missing.filter((entry) => spec.alwaysMissing || !(entry.key in context));
writeFileSync(join(out, 'S.template.json'), JSON.stringify({ Resources: {} }));
writeFileSync(join(out, 'manifest.json'), JSON.stringify({ version: '55.0.0', artifacts: { S: {
  type: 'aws:cloudformation:stack', environment: 'aws://unknown-account/unknown-region',
  properties: { templateFile: 'S.template.json' } } }, ...(missing.length ? { missing } : {}) }));
`;

interface Run {
  out: string;
  context: Record<string, unknown>;
  account: string | null;
  region: string | null;
  validation: string | null;
  asm: string | null;
}

function project(
  spec: { missing?: unknown[]; alwaysMissing?: boolean } = {},
  cdkJson: Record<string, unknown> = {},
) {
  const dir = tempDir();
  writeFileSync(join(dir, 'app.mjs'), FAKE_APP);
  writeJson(join(dir, 'app-spec.json'), { missing: [], ...spec });
  writeJson(join(dir, 'cdk.json'), { app: 'node app.mjs', ...cdkJson });
  return dir;
}

function runs(dir: string): Run[] {
  return readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Run);
}

/** Lookups that answer the `ssm` provider with `answer` (undefined: the parameter does not exist). */
function ssmLookups(answer: (query: ContextQuery) => Promise<string | undefined>): ContextLookups {
  return {
    supports: (provider) => provider === 'ssm',
    lookup: async (_provider, query) => {
      const value = await answer(query);
      return value === undefined
        ? { notFound: `SSM parameter ${String(query.parameterName)} does not exist` }
        : { value };
    },
  };
}

function options(cwd: string, overrides: Partial<SynthesizeOptions> = {}): SynthesizeOptions {
  return {
    cwd,
    env: { PATH: process.env.PATH },
    lookups: ssmLookups(async () => 'looked-up'),
    onAppOutput: () => {},
    ...overrides,
  };
}

const ssmEntry = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  provider: 'ssm',
  props: { account: '123456789012', region: 'eu-west-1', parameterName: '/app/name', ...extra },
});

describe('synthesize', () => {
  it('runs the app with CDK_OUTDIR, the merged context, the caller environment and the schema version', async () => {
    const dir = project({}, { context: { fromJson: 'json', shared: 'json' } });
    writeJson(join(dir, 'cdk.context.json'), { cached: 'c', shared: 'cached' });
    const assembly = await synthesize(
      options(dir, {
        context: ['cli=1'],
        environment: async () => ({ account: '111122223333', region: 'us-west-2' }),
      }),
    );
    expect(assembly.stacks.map((s) => s.displayName)).toEqual(['S']);
    const [run] = runs(dir);
    expect(run).toMatchObject({
      out: join(dir, 'cdk.out'),
      account: '111122223333',
      region: 'us-west-2',
      validation: null,
      asm: '55.0.0',
      context: {
        fromJson: 'json',
        shared: 'json',
        cached: 'c',
        cli: '1',
        'aws:cdk:enable-asset-metadata': true,
      },
    });
  });

  it('leaves CDK_DEFAULT_ACCOUNT/REGION unset when credentials are unavailable, and honours --output and --no-validation', async () => {
    const dir = project();
    const notes: string[] = [];
    await synthesize(
      options(dir, {
        output: 'elsewhere',
        validation: false,
        environment: async () => ({}),
        onNote: (n) => notes.push(n),
      }),
    );
    expect(runs(dir)[0]).toMatchObject({
      out: join(dir, 'elsewhere'),
      account: null,
      region: null,
      validation: 'false',
    });
    expect(notes.join('\n')).toMatch(/environment-agnostic/);
  });

  it('reads a pre-synthesized assembly without running anything or asking for the environment', async () => {
    const dir = tempDir();
    writeAssembly(join(dir, 'cdk.out'), [{ id: 'Pre' }]);
    const environment = vi.fn(async () => ({}));
    const assembly = await synthesize(options(dir, { app: 'cdk.out', environment }));
    expect(assembly.stacks.map((s) => s.displayName)).toEqual(['Pre']);
    expect(environment).not.toHaveBeenCalled();
  });

  it('looks up missing SSM context, stores it in cdk.context.json and runs the app again', async () => {
    const dir = project({ missing: [ssmEntry('ssm:param')] });
    writeJson(join(dir, 'cdk.context.json'), { zzz: 'kept' });
    const ssmParameter = vi.fn(async (_query: ContextQuery) => 'v1');
    await synthesize(options(dir, { lookups: ssmLookups(ssmParameter) }));
    expect(ssmParameter).toHaveBeenCalledExactlyOnceWith({
      account: '123456789012',
      region: 'eu-west-1',
      parameterName: '/app/name',
    });
    expect(runs(dir).map((run) => run.context['ssm:param'])).toEqual([undefined, 'v1']);
    expect(readFileSync(join(dir, 'cdk.context.json'), 'utf8')).toBe(
      `${JSON.stringify({ 'ssm:param': 'v1', zzz: 'kept' }, null, 2)}\n`,
    );
  });

  it("passes the app's dummy value for an absent parameter it may ignore, without caching it", async () => {
    const dir = project({
      missing: [ssmEntry('ssm:opt', { ignoreErrorOnMissingContext: true, dummyValue: 'dummy' })],
    });
    await synthesize(options(dir, { lookups: ssmLookups(async () => undefined) }));
    expect(runs(dir)[1]?.context['ssm:opt']).toBe('dummy');
    expect(existsSync(join(dir, 'cdk.context.json'))).toBe(false);
  });

  it('refuses an absent parameter the app requires', async () => {
    const dir = project({ missing: [ssmEntry('ssm:req')] });
    await expect(
      synthesize(options(dir, { lookups: ssmLookups(async () => undefined) })),
    ).rejects.toMatchObject({
      code: 'CONTEXT_LOOKUP_FAILED',
      message: expect.stringContaining('/app/name does not exist (context key "ssm:req")'),
    });
  });

  it('refuses a lookup cdkd cannot make, naming the provider and the key, before any call', async () => {
    const azKey = 'availability-zones:account=123456789012:region=eu-west-1';
    const dir = project({
      missing: [ssmEntry('ssm:param'), { key: azKey, provider: 'availability-zones', props: {} }],
    });
    const ssmParameter = vi.fn(async () => 'v');
    await expect(synthesize(options(dir, { lookups: ssmLookups(ssmParameter) }))).rejects.toMatchObject({
      code: 'CONTEXT_LOOKUP_UNSUPPORTED',
      message: expect.stringContaining(`provider "availability-zones" for key "${azKey}"`),
      hint: expect.stringContaining('cdk.context.json'),
    });
    expect(ssmParameter).not.toHaveBeenCalled();
  });

  it('refuses every missing key at once when lookups are off (--no-lookups), looking nothing up', async () => {
    const dir = project({ missing: [ssmEntry('ssm:a'), ssmEntry('ssm:b')] });
    await expect(synthesize(options(dir, { lookups: undefined }))).rejects.toMatchObject({
      code: 'CONTEXT_LOOKUPS_DISABLED',
      message: expect.stringContaining('ssm:a, ssm:b'),
      hint: expect.stringContaining('cdk.context.json'),
    });
    expect(runs(dir)).toHaveLength(1);
    expect(existsSync(join(dir, 'cdk.context.json'))).toBe(false);
  });

  it('names a CDK CLI plugin the app asks for, which cdkd does not load', async () => {
    const dir = project({
      missing: [{ key: 'plugin:x', provider: 'plugin', props: { pluginName: 'my-plugin' } }],
    });
    await expect(synthesize(options(dir))).rejects.toMatchObject({
      code: 'CONTEXT_LOOKUP_UNSUPPORTED',
      message: expect.stringContaining('the CDK CLI plugin "my-plugin" for key "plugin:x"'),
    });
  });

  it('names the key, provider, account and region of a lookup that fails, and writes nothing', async () => {
    const dir = project({ missing: [ssmEntry('ssm:param')] });
    const lookups = ssmLookups(async () => {
      throw new Error('Found 2 VPCs matching');
    });
    await expect(synthesize(options(dir, { lookups }))).rejects.toMatchObject({
      code: 'CONTEXT_LOOKUP_FAILED',
      message:
        'The ssm lookup for context key "ssm:param" (account 123456789012, region eu-west-1) failed: Found 2 VPCs matching',
    });
    expect(existsSync(join(dir, 'cdk.context.json'))).toBe(false);
  });

  it('stops an app that keeps reporting the same missing context', async () => {
    const dir = project({ missing: [ssmEntry('ssm:param')], alwaysMissing: true });
    await expect(synthesize(options(dir))).rejects.toMatchObject({ code: 'CONTEXT_LOOKUP_LOOP' });
    expect(runs(dir)).toHaveLength(2);
  });

  it('fails with the last 20 lines of stderr when the app fails, streaming its output meanwhile', async () => {
    const dir = project();
    const script = 'for (let i = 1; i <= 30; i++) console.error("line " + i); process.exit(3)';
    writeFileSync(join(dir, 'fail.cjs'), script);
    const streamed: string[] = [];
    const error: unknown = await synthesize(
      options(dir, { app: 'node fail.cjs', onAppOutput: (c) => streamed.push(c) }),
    ).catch((e: unknown) => e as Error & { code: string });
    expect(error).toMatchObject({
      code: 'SYNTH_FAILED',
      message: expect.stringContaining('exited with code 3'),
    });
    const message = (error as Error).message;
    expect(message).toContain('line 11\n');
    expect(message).toContain('line 30');
    expect(message).not.toContain('line 10\n');
    expect(streamed.join('')).toContain('line 1\n');
  });

  it('cuts a long line of that tail, and leaves out blank ones, which the streamed output holds whole', async () => {
    const dir = project();
    const script =
      'console.error("x".repeat(5000)); console.error(" ".repeat(300)); console.error("SectionAlreadyContains"); process.exit(1)';
    writeFileSync(join(dir, 'fail.cjs'), script);
    const streamed: string[] = [];
    const error: unknown = await synthesize(
      options(dir, { app: 'node fail.cjs', onAppOutput: (c) => streamed.push(c) }),
    ).catch((e: unknown) => e);
    const message = (error as Error).message;
    expect(message).toContain(
      `  ${'x'.repeat(200)}… (4800 more characters, in the output above)\n  SectionAlreadyContains`,
    );
    expect(streamed.join('')).toContain('x'.repeat(5000));
  });

  it('fails when the app succeeds without writing an assembly, ignoring a stale manifest', async () => {
    const dir = project();
    writeAssembly(join(dir, 'cdk.out'), [{ id: 'Stale' }]);
    await expect(synthesize(options(dir, { app: 'node -e ""' }))).rejects.toMatchObject({
      code: 'SYNTH_FAILED',
      message: expect.stringContaining('wrote no cloud assembly'),
    });
  });
});

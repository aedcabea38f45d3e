import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/toolkit/bootstrap/bootstrap.js';
import { runCli } from '../helpers/cli.js';
import { prng } from '../helpers/prng.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { corpusDir, describeCorpus } from '../template/corpus-support.js';
import { assembly, deploy, outcomeOf, session, snapshot } from './harness.js';

// Property-style: randomly corrupted CDK templates (truncated, keys dropped, values retyped,
// from a seeded PRNG so every run feeds the same inputs) never crash cdkd: a dry run ends
// in exit 0 or a CdkdError (exit 1), and a real deploy over a deployed stack changes
// nothing unless the corrupted template is still one cdkd accepts.
const sandbox = useSandbox();
const SEED = 0x12c0ffee;

type Json = unknown;
type Path = Array<string | number>;

/** Every path to a value inside `value` (the root excluded). */
function paths(value: Json, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i]);
      paths(item, [...prefix, i], out);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push([...prefix, key]);
      paths(item, [...prefix, key], out);
    }
  }
  return out;
}

function parentOf(root: Json, path: Path): Record<string | number, Json> {
  return path
    .slice(0, -1)
    .reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], root) as Record<
    string | number,
    Json
  >;
}

const RETYPED: Json[] = [42, 'text', true, null, [], {}, ['a'], { Key: 'k' }];

/** A corrupted copy of `template`, as the text of its file, and what was done to it. */
function corrupt(template: Json, random: () => number): { text: string; what: string } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const copy = structuredClone(template);
  const all = paths(copy);
  const kind = pick(['truncate', 'drop', 'drop', 'retype', 'retype'] as const);
  if (kind === 'truncate' || all.length === 0) {
    const text = JSON.stringify(copy, null, 1);
    const at = 1 + Math.floor(random() * (text.length - 1));
    return { text: text.slice(0, at), what: `truncated at ${at} of ${text.length}` };
  }
  const path = pick(all);
  const parent = parentOf(copy, path);
  const key = path.at(-1)!;
  if (kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return { text: JSON.stringify(copy), what: `dropped ${path.join('.')}` };
  }
  const before = JSON.stringify(parent[key]);
  const replacement = pick(RETYPED.filter((value) => JSON.stringify(value) !== before));
  parent[key] = replacement;
  return { text: JSON.stringify(copy), what: `retyped ${path.join('.')} to ${JSON.stringify(replacement)}` };
}

/** An assembly of one stack `id` whose template file holds `text` exactly. */
function assemblyWithText(id: string, text: string): string {
  const dir = assembly([{ id }]);
  writeFileSync(join(dir, `${id}.template.json`), text);
  return dir;
}

beforeAll(async () => {
  await bootstrap(session());
});

describeCorpus('randomly corrupted corpus templates', () => {
  const random = prng(SEED);
  let picked: string[] | undefined;
  // Read when a test runs, not when the file is collected: a clone without the corpus skips.
  const sample = (): string[] => {
    const files = readdirSync(corpusDir)
      .filter((file) => file.endsWith('.template.json'))
      .sort();
    return (picked ??= Array.from({ length: 60 }, () => files[Math.floor(random() * files.length)]!));
  };

  it('a dry run of each ends in exit 0 or a one-line CdkdError, never a crash', async () => {
    const crashes: string[] = [];
    const outcomes = new Map<string, number>();
    for (const [i, file] of sample().entries()) {
      const template = JSON.parse(readFileSync(join(corpusDir, file), 'utf8')) as Json;
      const { text, what } = corrupt(template, random);
      const outcome = await outcomeOf(() => deploy(assemblyWithText(`Corrupt${i}`, text), { dryRun: true }));
      if (outcome.startsWith('crash')) crashes.push(`${file} ${what}: ${outcome}`);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect(crashes).toEqual([]);
    // The sample exercises the checks, not only the JSON parser.
    expect(outcomes.get('TEMPLATE_INVALID') ?? 0).toBeGreaterThan(5);
    expect(outcomes.get('ASSEMBLY_MALFORMED') ?? 0).toBeGreaterThan(0);
  });

  it('through the built CLI: exit 0 or 1 and no stack trace', async () => {
    for (const file of sample().slice(0, 4)) {
      const template = JSON.parse(readFileSync(join(corpusDir, file), 'utf8')) as Json;
      const { text, what } = corrupt(template, random);
      const result = await runCli(['deploy', '--dry-run', '-a', assemblyWithText('CliCorrupt', text)], {
        env: sandboxEnv(sandbox.current.url),
      });
      expect([0, 1], `${file} ${what}: ${result.stderr}`).toContain(result.code);
      expect(result.stderr, `${file} ${what}`).not.toMatch(/\n\s+at /);
      expect(result.stderr).not.toContain('This is unexpected');
    }
  });
});

describe('randomly corrupted templates of a deployed stack', () => {
  const target = {
    Parameters: { Suffix: { Type: 'String', Default: 'x' } },
    Resources: {
      Queue: {
        Type: 'AWS::SQS::Queue',
        Properties: { VisibilityTimeout: 45, Tags: [{ Key: 'k', Value: 'v' }] },
      },
      Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::Sub': 'topic-${Suffix}' } } },
      Param: {
        Type: 'AWS::SSM::Parameter',
        Properties: { Type: 'String', Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } },
        DependsOn: 'Topic',
      },
    },
    Outputs: {
      QueueArn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] }, Export: { Name: 'corrupt-target-arn' } },
    },
  };
  const deployTarget = (text: string) => outcomeOf(() => deploy(assemblyWithText('Target', text)));

  it('changes nothing unless the corrupted template is one cdkd accepts', async () => {
    const random = prng(SEED + 1);
    expect(await deployTarget(JSON.stringify(target))).toBe('ok');
    const crashes: string[] = [];
    const touched: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { text, what } = corrupt(target, random);
      const before = await snapshot(sandbox.current.url);
      const outcome = await deployTarget(text);
      if (outcome.startsWith('crash')) crashes.push(`${what}: ${outcome}`);
      if (outcome === 'ok') {
        expect(await deployTarget(JSON.stringify(target)), `restoring after ${what}`).toBe('ok');
      } else if ((await snapshot(sandbox.current.url)) !== before) {
        touched.push(`${what}: ${outcome}`);
      }
    }
    expect(crashes).toEqual([]);
    expect(touched).toEqual([]);
  });
});

import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HeadObjectCommand, ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { CfnParameter, Stack } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const LIVE = '/saved-plan/live';

/**
 * One stack: a queue, an SSM parameter holding the `Label` template parameter, and one
 * holding what the SSM parameter `LIVE` holds when the stack is planned (a live read).
 */
function app(queues: string[]): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, 'Planned');
    const label = new CfnParameter(stack, 'Label', { type: 'String', default: 'one' });
    const live = new CfnParameter(stack, 'Live', {
      type: 'AWS::SSM::Parameter::Value<String>',
      default: LIVE,
    });
    new StringParameter(stack, 'LabelCopy', { stringValue: label.valueAsString });
    new StringParameter(stack, 'LiveCopy', { stringValue: live.valueAsString });
    for (const id of queues) new Queue(stack, id);
  });
}

const s3 = () => new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
const ssm = () => new SSMClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });

async function stateBucket(): Promise<string> {
  const { Buckets } = await s3().send(new ListBucketsCommand({}));
  return Buckets!.map((bucket) => bucket.Name!).find((name) => name.startsWith('cdkd-state-'))!;
}

async function etagOf(key: string): Promise<string | undefined> {
  try {
    return (await s3().send(new HeadObjectCommand({ Bucket: await stateBucket(), Key: key }))).ETag;
  } catch (error) {
    if ((error as { name?: string }).name === 'NotFound') return undefined;
    throw error;
  }
}

const stateEtag = () => etagOf('cdkd/Planned/us-east-1/state.json');
const lockEtag = () => etagOf('cdkd/Planned/us-east-1/lock.json');

interface SavedFile {
  stacks: Array<{
    displayName: string;
    stateEtag: string | null;
    operations: Array<{ logicalId: string; kind: string }>;
  }>;
}

const dir = tempDir();
const planFile = (name: string) => join(dir, name);
const readPlan = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as SavedFile;

async function deploy(appDir: string, ...args: string[]) {
  return runCli(['deploy', '-a', appDir, ...args], { env: env() });
}

/** What a refusal must leave: the same state document, the same resources, no lock. */
async function snapshot() {
  return { etag: await stateEtag(), live: await stackResources(sandbox.current.url) };
}

describe('saved plans: cdkd diff --out, then cdkd deploy --plan', () => {
  let base: string;
  let extra: string;
  let third: string;

  beforeAll(async () => {
    base = app(['Queue']);
    extra = app(['Queue', 'Extra']);
    third = app(['Queue', 'Extra', 'Third']);
    expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
    await ssm().send(new PutParameterCommand({ Name: LIVE, Value: 'v1', Type: 'String', Overwrite: true }));
    const first = await deploy(base);
    expect(first.code, first.stderr).toBe(0);
  }, 180_000);

  it('applies the saved plan: the plan file names the state it was made from, and deploy does what it says', async () => {
    const file = planFile('extra.json');
    const diff = await runCli(['diff', '-a', extra, '--out', file], { env: env() });
    expect(diff.stderr).toBe('');
    expect(diff.code).toBe(0);
    const saved = readPlan(file);
    expect(saved.stacks.map((stack) => stack.displayName)).toEqual(['Planned']);
    expect(saved.stacks[0]!.stateEtag).toBe(await stateEtag());
    const changes = saved.stacks[0]!.operations.filter((op) => op.kind !== 'no-op');
    expect(changes).toEqual([
      expect.objectContaining({ logicalId: expect.stringMatching(/^Extra/), kind: 'create' }),
    ]);
    const queuesBefore = (await stackResources(sandbox.current.url)).filter(
      (r) => r.type === 'AWS::SQS::Queue',
    );

    const applied = await deploy(extra, '--plan', file);
    expect(applied.stderr).toContain('Done');
    expect(applied.code).toBe(0);
    const state = await runCli(['state', 'show', 'Planned', '--json'], { env: env() });
    expect(Object.keys((JSON.parse(state.stdout) as { resources: object }).resources)).toContainEqual(
      expect.stringMatching(/^Extra/),
    );
    const queuesAfter = (await stackResources(sandbox.current.url)).filter(
      (r) => r.type === 'AWS::SQS::Queue',
    );
    expect(queuesAfter).toHaveLength(queuesBefore.length + 1);
  }, 180_000);

  it('refuses after another deploy changed the state since the plan, touching nothing', async () => {
    const file = planFile('third.json');
    // The label given each time: a deploy keeps the last deployed value of a parameter it is
    // not given, which the deploy in between changes.
    expect(
      (await runCli(['diff', '-a', third, '--parameters', 'Label=one', '--out', file], { env: env() })).code,
    ).toBe(0);
    // Someone else deploys between the review and the apply.
    expect((await deploy(extra, '--parameters', 'Label=two')).code).toBe(0);
    const before = await snapshot();

    const refused = await deploy(third, '--parameters', 'Label=one', '--plan', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [SAVED_PLAN_STALE]');
    expect(refused.stderr).toContain(`The saved plan ${file} no longer matches; nothing was changed`);
    expect(refused.stderr).toContain('Planned: its state changed since the plan was made');
    expect(refused.stderr).toContain(`cdkd diff --out ${file}`);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await snapshot()).toEqual(before);
    expect(await lockEtag()).toBeUndefined();
  }, 180_000);

  it('refuses a template changed since the plan, touching nothing', async () => {
    const file = planFile('same.json');
    expect(
      (await runCli(['diff', '-a', extra, '--parameters', 'Label=two', '--out', file], { env: env() })).code,
    ).toBe(0);
    const before = await snapshot();

    const refused = await deploy(third, '--parameters', 'Label=two', '--plan', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [SAVED_PLAN_STALE]');
    expect(refused.stderr).toContain('Planned: template differs');
    expect(await snapshot()).toEqual(before);
    expect(await lockEtag()).toBeUndefined();
  }, 180_000);

  it('refuses a parameter or a plan-shaping flag changed since the plan, touching nothing', async () => {
    const file = planFile('same.json');
    const before = await snapshot();

    const parameter = await deploy(extra, '--parameters', 'Label=three', '--plan', file);
    expect(parameter.code).toBe(1);
    expect(parameter.stderr).toContain('Error [SAVED_PLAN_STALE]');
    expect(parameter.stderr).toContain('Planned: parameter Label differs (was "two", now "three")');

    const flag = await deploy(extra, '--parameters', 'Label=two', '--replace', '--plan', file);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('flag differs: replace was false in the plan, is true now');
    expect(await snapshot()).toEqual(before);
  }, 180_000);

  it('refuses when what planning reads live moved though every input is the same, touching nothing', async () => {
    await ssm().send(new PutParameterCommand({ Name: LIVE, Value: 'v2', Type: 'String', Overwrite: true }));
    const file = planFile('live.json');
    expect(
      (await runCli(['diff', '-a', extra, '--parameters', 'Label=two', '--out', file], { env: env() })).code,
    ).toBe(0);
    const planned = readPlan(file).stacks[0]!.operations.filter((op) => op.kind !== 'no-op');
    expect(planned).toEqual([
      expect.objectContaining({ logicalId: expect.stringMatching(/^LiveCopy/), kind: 'update' }),
    ]);
    await ssm().send(new PutParameterCommand({ Name: LIVE, Value: 'v3', Type: 'String', Overwrite: true }));
    const before = await snapshot();

    const refused = await deploy(extra, '--parameters', 'Label=two', '--plan', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [SAVED_PLAN_STALE]');
    expect(refused.stderr).toMatch(
      /Planned: the plan made now differs: LiveCopy\w+: update planned with other details/,
    );
    expect(await snapshot()).toEqual(before);
    expect(await lockEtag()).toBeUndefined();
  }, 180_000);

  it('records the name-prefix setting deploy would resolve (env, then cdk.json), so the two compare', async () => {
    const file = planFile('prefixed.json');
    const diff = await runCli(['diff', '-a', extra, '--out', file], {
      env: { ...env(), CDKD_PREFIX_USER_SUPPLIED_NAMES: 'true' },
    });
    expect(diff.code, diff.stderr).toBe(0);
    expect(
      (JSON.parse(readFileSync(file, 'utf8')) as { flags: { prefixUserSuppliedNames: boolean } }).flags,
    ).toMatchObject({ prefixUserSuppliedNames: true });
  }, 120_000);

  it('refuses a malformed plan file or one of another format version, naming the file', async () => {
    const garbage = planFile('garbage.json');
    writeFileSync(garbage, '{"format": "cdkd-saved-plan", ');
    const malformed = await deploy(extra, '--plan', garbage);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(`Error [SAVED_PLAN_INVALID]: The plan file ${garbage} is not JSON`);
    expect(malformed.stderr).not.toMatch(/\n\s+at /);

    const future = planFile('future.json');
    writeFileSync(future, JSON.stringify({ ...readPlan(planFile('same.json')), formatVersion: 2 }));
    const versioned = await deploy(extra, '--plan', future);
    expect(versioned.code).toBe(1);
    expect(versioned.stderr).toContain(
      `The plan file ${future} has format version 2; this cdkd reads version 1`,
    );
  }, 180_000);
});

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, mkdir, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourceCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
  type CloudFormationClient,
  type Parameter,
  type Tag,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  brokenParameter as broken,
  cloudFormationClient,
  eventsOf,
  eventTrail,
  settled,
  ssmParameter as parameter,
  template,
} from './cloudformation-helpers.js';
import { admin, failure, s3Client, ssmClient } from './helpers.js';

/** Seed 004 (CloudFormation stack updates), one case per rule, through the AWS SDK. */

let dataDir: string;
let sandbox: Sandbox;
let cfn: CloudFormationClient;
let ssm: SSMClient;
let s3: S3Client;

async function start(): Promise<void> {
  sandbox = await startSandbox({ port: 0, dataDir });
  cfn = cloudFormationClient(sandbox);
  ssm = ssmClient(sandbox);
  s3 = s3Client(sandbox);
}
async function stop(): Promise<void> {
  cfn.destroy();
  ssm.destroy();
  s3.destroy();
  await sandbox.stop();
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cfn-seed004-'));
  await start();
});
afterAll(async () => {
  await stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function create(
  StackName: string,
  body: string,
  extra: { Parameters?: Parameter[]; Tags?: Tag[] } = {},
) {
  await cfn.send(new CreateStackCommand({ StackName, TemplateBody: body, ...extra }));
  const stack = await settled(cfn, StackName);
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  return stack;
}
async function update(
  StackName: string,
  body: string,
  extra: { Parameters?: Parameter[]; Tags?: Tag[]; DisableRollback?: boolean } = {},
) {
  await cfn.send(new UpdateStackCommand({ StackName, TemplateBody: body, ...extra }));
  return settled(cfn, StackName);
}
const physicalId = async (StackName: string, LogicalResourceId: string) =>
  (await cfn.send(new DescribeStackResourceCommand({ StackName, LogicalResourceId }))).StackResourceDetail!
    .PhysicalResourceId!;
const valueOf = async (Name: string) => (await ssm.send(new GetParameterCommand({ Name }))).Parameter?.Value;
const gone = async (Name: string) => (await failure(valueOf(Name))).name === 'ParameterNotFound';
/** The events of the stack's last operation (from its last stack-level *_IN_PROGRESS "User Initiated"). */
async function lastOperation(StackName: string): Promise<string[]> {
  const events = await eventsOf(cfn, StackName);
  const start = events.findLastIndex(
    (e) => e.LogicalResourceId === StackName && e.ResourceStatusReason === 'User Initiated',
  );
  return events.slice(start).map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);
}
/** Each resource's recorded propertiesHash, from the sandbox's inventory. */
async function hashes(StackName: string): Promise<Record<string, string>> {
  const { json } = await admin(sandbox, 'GET', 'inventory');
  const stacks = JSON.stringify(json).includes('AWS::CloudFormation::Stack')
    ? (findStacks(json) as Array<{
        id: string;
        resources: Array<{ logicalId: string; propertiesHash: string }>;
      }>)
    : [];
  const stack = stacks.find((s) => s.id === StackName)!;
  return Object.fromEntries(stack.resources.map((r) => [r.logicalId, r.propertiesHash]));
}
function findStacks(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as Record<string, unknown>;
  if (Array.isArray(record['AWS::CloudFormation::Stack'])) return record['AWS::CloudFormation::Stack'];
  for (const value of Object.values(record)) {
    const found = findStacks(value);
    if (found) return found;
  }
  return undefined;
}
/** The file the sandbox keeps a stack's record in. */
async function stackFile(stackName: string): Promise<string> {
  const dir = join(dataDir, 'cloudformation', 'stacks');
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.json')) continue;
    const doc = JSON.parse(await readFile(join(dir, name), 'utf8')) as { stackName: string };
    if (doc.stackName === stackName) return join(dir, name);
  }
  throw new Error(`no record for stack ${stackName}`);
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('seed 004: which strategy a changed resource gets', () => {
  it('a sha256 of the resolved property map is stored with each stack resource', async () => {
    await create('hashed', template({ P: parameter('/s4/hashed', { 'Fn::Sub': '${AWS::StackName}-v' }) }));
    // Resolved (Fn::Sub evaluated), keys sorted.
    const expected = sha256(JSON.stringify({ Name: '/s4/hashed', Type: 'String', Value: 'hashed-v' }));
    expect(await hashes('hashed')).toEqual({ P: expected });
  });

  it('a resource whose hash is unchanged is skipped', async () => {
    await create('skip', template({ Same: parameter('/s4/same', 'a'), Other: parameter('/s4/other', 'a') }));
    const after = await update(
      'skip',
      template({ Same: parameter('/s4/same', 'a'), Other: parameter('/s4/other', 'b') }),
    );
    expect(after.StackStatus).toBe('UPDATE_COMPLETE');
    const trail = await lastOperation('skip');
    expect(trail).toContain('Other UPDATE_COMPLETE');
    expect(trail.filter((e) => e.startsWith('Same '))).toEqual([]);
  });

  it('in-place update when the handler implements update: same physical resource', async () => {
    await create('inplace', template({ P: parameter('/s4/inplace', 'a') }));
    const after = await update('inplace', template({ P: parameter('/s4/inplace', 'b') }));
    expect(after.StackStatus).toBe('UPDATE_COMPLETE');
    expect(await physicalId('inplace', 'P')).toBe('/s4/inplace');
    expect(await valueOf('/s4/inplace')).toBe('b');
    const reasons = (await eventsOf(cfn, 'inplace')).map((e) => e.ResourceStatusReason ?? '');
    expect(reasons.some((r) => r.includes('new physical resource'))).toBe(false);
    expect(await lastOperation('inplace')).not.toContain('P DELETE_COMPLETE');
  });

  it.each([
    ['AWS::SSM::Parameter', 'Name', (n: string) => parameter(n, 'v')],
    [
      'AWS::Logs::LogGroup',
      'LogGroupName',
      (n: string) => ({ Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: n.slice(1) } }),
    ],
    [
      'AWS::S3::Bucket',
      'BucketName',
      (n: string) => ({
        Type: 'AWS::S3::Bucket',
        Properties: { BucketName: n.slice(1).replaceAll('/', '-') },
      }),
    ],
  ])(
    'replacement when an identity property of %s changes (%s): delete, then create',
    async (type, _, make) => {
      const stack = `replace-${type.split('::')[1]!.toLowerCase()}`;
      await create(stack, template({ R: make('/s4/first') }));
      const first = await physicalId(stack, 'R');
      const after = await update(stack, template({ R: make('/s4/second') }));
      expect(after.StackStatus).toBe('UPDATE_COMPLETE');
      const second = await physicalId(stack, 'R');
      expect(second).not.toBe(first);
      const events = await eventsOf(cfn, stack);
      expect(events.map((e) => e.ResourceStatusReason)).toContain(
        'Requested update requires the creation of a new physical resource; hence creating one.',
      );
      const resources = (await admin(sandbox, 'GET', 'inventory')).json;
      expect(JSON.stringify(resources)).not.toContain(`"${first}"`);
    },
  );

  it.each(['Retain', 'Snapshot'])(
    'retain on replace (UpdateReplacePolicy %s): the new one is created, the old one orphaned and untracked',
    async (policy) => {
      const stack = `retain-${policy.toLowerCase()}`;
      const name = (n: string) => `/s4/${policy}/${n}`;
      await create(stack, template({ R: parameter(name('old'), 'v', { UpdateReplacePolicy: policy }) }));
      const after = await update(
        stack,
        template({ R: parameter(name('new'), 'v', { UpdateReplacePolicy: policy }) }),
      );
      expect(after.StackStatus).toBe('UPDATE_COMPLETE');
      expect(await physicalId(stack, 'R')).toBe(name('new'));
      expect(await valueOf(name('old'))).toBe('v');
      await cfn.send(new DeleteStackCommand({ StackName: stack }));
      await failure(settled(cfn, stack));
      expect(await gone(name('new'))).toBe(true);
      expect(await valueOf(name('old'))).toBe('v');
    },
  );

  it('a resource recorded with an empty (legacy) hash is unchanged on the first update', async () => {
    const body = (value: string) =>
      template({ Legacy: parameter('/s4/legacy', value), Fresh: parameter('/s4/fresh', value) });
    await create('legacy', body('a'));
    await stop();
    // A stack recorded before hashes were kept: its resource's propertiesHash is ''.
    const file = await stackFile('legacy');
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.resources.Legacy.propertiesHash = '';
    await writeFile(file, JSON.stringify(doc));
    await start();

    const after = await update('legacy', body('b'));
    expect(after.StackStatus).toBe('UPDATE_COMPLETE');
    expect(await valueOf('/s4/legacy')).toBe('a');
    expect(await valueOf('/s4/fresh')).toBe('b');
    const trail = await lastOperation('legacy');
    expect(trail.filter((e) => e.startsWith('Legacy '))).toEqual([]);
    expect((await hashes('legacy')).Legacy).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('seed 004: what an update rollback puts back', () => {
  const withParameter = (extra: Record<string, unknown> = {}) =>
    template(
      { Kept: parameter({ 'Fn::Sub': '/s4/${AWS::StackName}/kept' }, { Ref: 'Stage' }), ...extra },
      { Parameters: { Stage: { Type: 'String' } } },
    );

  it('an update writes its template, parameters and tags onto the stack before touching a resource', async () => {
    await create('early', withParameter(), {
      Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'one' }],
      Tags: [{ Key: 'gen', Value: '1' }],
    });
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::SSM::Parameter': { update: 400 } } });
    try {
      const next = withParameter({ Extra: parameter('/s4/rb/extra', 'x') });
      await cfn.send(
        new UpdateStackCommand({
          StackName: 'early',
          TemplateBody: next,
          Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'two' }],
          Tags: [{ Key: 'gen', Value: '2' }],
        }),
      );
      for (;;) {
        if ((await eventTrail(cfn, 'early')).includes('Kept UPDATE_IN_PROGRESS')) break;
        await new Promise((done) => setTimeout(done, 10));
      }
      const during = (await cfn.send(new DescribeStacksCommand({ StackName: 'early' }))).Stacks![0]!;
      expect(during.StackStatus).toBe('UPDATE_IN_PROGRESS');
      expect(during.Parameters).toEqual([{ ParameterKey: 'Stage', ParameterValue: 'two' }]);
      expect(during.Tags).toEqual([{ Key: 'gen', Value: '2' }]);
      expect((await cfn.send(new GetTemplateCommand({ StackName: 'early' }))).TemplateBody).toBe(next);
      expect(await valueOf('/s4/early/kept')).toBe('one');
    } finally {
      await admin(sandbox, 'PUT', 'latency', { types: {} });
    }
    expect((await settled(cfn, 'early')).StackStatus).toBe('UPDATE_COMPLETE');
  });

  it('UPDATE_ROLLBACK_COMPLETE restores template, parameters, tags and the resource list', async () => {
    const before = withParameter();
    await create('restore', before, {
      Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'one' }],
      Tags: [{ Key: 'gen', Value: '1' }],
    });
    const after = await update(
      'restore',
      withParameter({ Added: parameter('/s4/rb/added', 'x'), Bad: broken('Added') }),
      {
        Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'two' }],
        Tags: [{ Key: 'gen', Value: '2' }],
      },
    );
    expect(after.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(after.Parameters).toEqual([{ ParameterKey: 'Stage', ParameterValue: 'one' }]);
    expect(after.Tags).toEqual([{ Key: 'gen', Value: '1' }]);
    expect((await cfn.send(new GetTemplateCommand({ StackName: 'restore' }))).TemplateBody).toBe(before);
    const listed = (await cfn.send(new ListStackResourcesCommand({ StackName: 'restore' })))
      .StackResourceSummaries;
    expect(listed?.map((r) => r.LogicalResourceId)).toEqual(['Kept']);
    expect(await valueOf('/s4/restore/kept')).toBe('one');
    expect(await gone('/s4/rb/added')).toBe(true);
  });

  it('an update that failed with DisableRollback keeps the attempted template and parameters', async () => {
    const before = withParameter();
    await create('attempt', before, { Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'one' }] });
    const attempted = withParameter({ Bad: broken('Kept') });
    const after = await update('attempt', attempted, {
      Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'two' }],
      DisableRollback: true,
    });
    expect(after.StackStatus).toBe('UPDATE_FAILED');
    expect(after.Parameters).toEqual([{ ParameterKey: 'Stage', ParameterValue: 'two' }]);
    expect((await cfn.send(new GetTemplateCommand({ StackName: 'attempt' }))).TemplateBody).toBe(attempted);
    expect(await valueOf('/s4/attempt/kept')).toBe('two');
  });

  it('a nested stack that rolled back restores its own template; the parent records no in-place success', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'nested-templates' }));
    const childV1 = template({ Child: parameter('/s4/nested/child', 'v1') });
    const childV2 = template({ Child: parameter('/s4/nested/child', 'v2'), Bad: broken('Child') });
    await s3.send(new PutObjectCommand({ Bucket: 'nested-templates', Key: 'v1.json', Body: childV1 }));
    await s3.send(new PutObjectCommand({ Bucket: 'nested-templates', Key: 'v2.json', Body: childV2 }));
    const parent = (key: string) =>
      template({
        Nested: {
          Type: 'AWS::CloudFormation::Stack',
          Properties: { TemplateURL: `${sandbox.url}/nested-templates/${key}` },
        },
      });
    await create('parent', parent('v1.json'));
    const childId = await physicalId('parent', 'Nested');
    const after = await update('parent', parent('v2.json'));
    expect(after.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const child = await settled(cfn, childId);
    expect(child.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect((await cfn.send(new GetTemplateCommand({ StackName: childId }))).TemplateBody).toBe(childV1);
    expect(await valueOf('/s4/nested/child')).toBe('v1');
    const nestedEvents = (await lastOperation('parent')).filter((e) => e.startsWith('Nested '));
    expect(nestedEvents).toEqual(['Nested UPDATE_IN_PROGRESS', 'Nested UPDATE_FAILED']);
  });

  it('metadata the update could not persist ends in UPDATE_ROLLBACK_FAILED, not a completion', async () => {
    await create('unsaved', template({ P: parameter('/s4/unsaved', 'a') }));
    const file = await stackFile('unsaved');
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::SSM::Parameter': { update: 300 } } });
    try {
      await cfn.send(
        new UpdateStackCommand({
          StackName: 'unsaved',
          TemplateBody: template({ P: parameter('/s4/unsaved', 'b') }),
        }),
      );
      for (;;) {
        if ((await eventTrail(cfn, 'unsaved')).includes('P UPDATE_IN_PROGRESS')) break;
        await new Promise((done) => setTimeout(done, 10));
      }
      // The stack's record can no longer be written: a directory stands where the file goes.
      await rename(file, `${file}.aside`);
      await mkdir(file);
      const stack = await settled(cfn, 'unsaved');
      expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
      expect(stack.StackStatusReason).toContain('could not be saved');
    } finally {
      await admin(sandbox, 'PUT', 'latency', { types: {} });
      await rm(file, { recursive: true, force: true });
      await rename(`${file}.aside`, file);
    }
  });
});

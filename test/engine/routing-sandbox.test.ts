import { GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import type { DeployOptions } from '../../src/engine/stack-request.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { iamRole, REGION, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';
import { eventsTo } from '../helpers/recording-io-host.js';

// Spec 002 "When the auto-route needs a recreate" and spec 003 "Routing" on the sandbox, with
// the real providers: an S3 bucket's SDK provider does not send AccelerateConfiguration (an
// update in place) nor ObjectLockEnabled (create-only).
const h = useSandboxEngine('routing-sandbox');
const BUCKET = 'AWS::S3::Bucket';
const ACCELERATED = { AccelerateConfiguration: { AccelerationStatus: 'Enabled' } };

const bucket = (name: string, properties: Record<string, unknown> = {}) => ({
  Store: { Type: BUCKET, Properties: { BucketName: name, ...properties } },
});

async function record(stack: string, logicalId: string) {
  return (await h.backend.store.read({ stackName: stack, region: REGION }))?.document.resources[logicalId];
}

async function ccModel(type: string, identifier: string): Promise<Record<string, unknown>> {
  const cc = await h.clients.cloudControl(REGION);
  const { ResourceDescription } = await cc.send(
    new GetResourceCommand({ TypeName: type, Identifier: identifier }),
  );
  return JSON.parse(ResourceDescription!.Properties!) as Record<string, unknown>;
}

const deploy = (stack: string, resources: Record<string, unknown>, options: Partial<DeployOptions> = {}) =>
  h.deploy(stack, resources, options);

describe('auto-route: a property the SDK provider drops', () => {
  it('moves a deployed sdk bucket to Cloud Control as an update in place, the property read back', async () => {
    await deploy('AutoRoute', bucket('auto-route-bucket'));
    const before = await record('AutoRoute', 'Store');
    expect(before?.provisionedBy).toBe('sdk');

    const result = await deploy('AutoRoute', bucket('auto-route-bucket', ACCELERATED));
    const op = result.plan.operations.find((o) => o.logicalId === 'Store');
    expect(op?.kind).toBe('update');
    expect(op?.routing).toBe('[via CC API: AccelerateConfiguration]');
    const after = await record('AutoRoute', 'Store');
    expect(after?.provisionedBy).toBe('cc-api');
    expect(after?.physicalId).toBe(before?.physicalId);
    expect(after?.creationIdentity).toEqual(before?.creationIdentity);
    expect(after?.properties).toMatchObject(ACCELERATED);
    expect(await ccModel(BUCKET, 'auto-route-bucket')).toMatchObject(ACCELERATED);
    const moved = h.events.find((e) => e.kind === 'resource' && e.status === 'succeeded');
    expect(moved).toMatchObject({
      action: 'update',
      message: expect.stringContaining('moved to Cloud Control'),
    });

    // Sticky: a later change stays on Cloud Control, and the plan says so.
    const sticky = await deploy(
      'AutoRoute',
      bucket('auto-route-bucket', { ...ACCELERATED, Tags: [{ Key: 'a', Value: 'b' }] }),
    );
    expect(sticky.plan.operations[0]?.routing).toBe('[via CC API: sticky]');
    expect((await record('AutoRoute', 'Store'))?.provisionedBy).toBe('cc-api');
  });

  it('creates a new resource holding it through Cloud Control', async () => {
    const result = await deploy('AutoCreate', bucket('auto-create-bucket', ACCELERATED));
    expect(result.plan.operations[0]).toMatchObject({
      kind: 'create',
      routing: '[via CC API: AccelerateConfiguration]',
    });
    expect(await record('AutoCreate', 'Store')).toMatchObject({
      provisionedBy: 'cc-api',
      physicalId: 'auto-create-bucket',
      properties: ACCELERATED,
    });
    expect(await ccModel(BUCKET, 'auto-create-bucket')).toMatchObject(ACCELERATED);
  });

  it('refuses, before anything is touched, a type whose SDK id is not a verified Cloud Control identifier', async () => {
    const topic = (properties: Record<string, unknown> = {}) => ({
      Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'unverified-topic', ...properties } },
    });
    await deploy('Unverified', topic());
    const before = await record('Unverified', 'Topic');
    await expect(deploy('Unverified', topic({ DataProtectionPolicy: { Name: 'p' } }))).rejects.toMatchObject({
      code: 'CC_IDENTIFIER_UNVERIFIED',
      hint: expect.stringContaining('--recreate-via-cc-api Topic'),
    });
    expect(await record('Unverified', 'Topic')).toEqual(before);
  });
});

describe('a reader of a resource not made yet', () => {
  it('is not annotated with a route at planning, and takes the SDK route once resolved', async () => {
    const result = await deploy('Reader', {
      Role: iamRole(),
      Fn: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
          Runtime: 'nodejs20.x',
          Handler: 'index.handler',
          Code: { ZipFile: 'exports.handler = async () => 1;' },
          LoggingConfig: { LogFormat: 'JSON' },
        },
      },
    });
    const op = result.plan.operations.find((o) => o.logicalId === 'Fn');
    expect(op?.kind).toBe('create');
    expect(op?.routing).toBeUndefined();
    expect((await record('Reader', 'Fn'))?.provisionedBy).toBe('sdk');
  });
});

describe('--prefer-sdk-route', () => {
  it('a removable drop: the record leaves it out, the same flag is a no-op, and a flag-less deploy sends it through Cloud Control', async () => {
    const flagged = { routing: { preferSdkRoute: 'all' as const } };
    const first = await deploy('PreferPair', bucket('prefer-pair-bucket', ACCELERATED), flagged);
    expect(first.plan.operations[0]?.routing).toBe('[SDK provider drops: AccelerateConfiguration]');
    const made = await record('PreferPair', 'Store');
    expect(made?.provisionedBy).toBe('sdk');
    expect(made?.properties).not.toHaveProperty('AccelerateConfiguration');
    expect(await ccModel(BUCKET, 'prefer-pair-bucket')).not.toHaveProperty('AccelerateConfiguration');

    expect((await deploy('PreferPair', bucket('prefer-pair-bucket', ACCELERATED), flagged)).changed).toBe(
      false,
    );

    const plain = await deploy('PreferPair', bucket('prefer-pair-bucket', ACCELERATED));
    expect(plain.plan.operations[0]).toMatchObject({
      kind: 'update',
      routing: '[via CC API: AccelerateConfiguration]',
    });
    const after = await record('PreferPair', 'Store');
    expect(after).toMatchObject({ provisionedBy: 'cc-api', physicalId: made?.physicalId });
    expect(await ccModel(BUCKET, 'prefer-pair-bucket')).toMatchObject(ACCELERATED);
  });

  it('a create-only drop: kept in the record, and a flag-less deploy is refused with CREATE_ONLY_DROP_NEEDS_REPLACEMENT', async () => {
    const locked = bucket('prefer-lock-bucket', { ObjectLockEnabled: true });
    const flagged = { routing: { preferSdkRoute: [{ type: BUCKET, property: 'ObjectLockEnabled' }] } };
    await deploy('PreferLock', locked, flagged);
    const made = await record('PreferLock', 'Store');
    expect(made).toMatchObject({ provisionedBy: 'sdk', properties: { ObjectLockEnabled: true } });
    expect(await ccModel(BUCKET, 'prefer-lock-bucket')).not.toHaveProperty('ObjectLockEnabled');

    expect((await deploy('PreferLock', locked, flagged)).changed).toBe(false);
    await expect(deploy('PreferLock', locked)).rejects.toMatchObject({
      code: 'CREATE_ONLY_DROP_NEEDS_REPLACEMENT',
      hint: expect.stringContaining('--prefer-sdk-route AWS::S3::Bucket:ObjectLockEnabled'),
    });
    expect(await record('PreferLock', 'Store')).toEqual(made);
  });
});

describe('sdk-coverage: a role on Cloud Control', () => {
  async function roleOnCloudControl(stack: string, name: string) {
    const ccOnly = await createEngine({
      backend: h.backend,
      clients: h.clients,
      registry: new ProviderRegistry(new CloudControlProvider()),
      io: eventsTo(() => undefined),
      command: 'deploy',
      regions: [REGION],
    });
    await ccOnly.deploy(
      { ...stackIdentity(stack), template: { Resources: { Role: iamRole({ RoleName: name }) } } },
      { concurrency: 1 },
    );
    expect((await record(stack, 'Role'))?.provisionedBy).toBe('cc-api');
  }

  it('returns to the SDK provider on its next update, in place', async () => {
    await roleOnCloudControl('Returning', 'returning-role');
    const result = await deploy('Returning', {
      Role: iamRole({ RoleName: 'returning-role', Description: 'back' }),
    });
    expect(result.plan.operations[0]).toMatchObject({
      kind: 'update',
      routing: '[returning to SDK provider]',
    });
    expect(await record('Returning', 'Role')).toMatchObject({
      provisionedBy: 'sdk',
      physicalId: 'returning-role',
    });
    expect(h.events).toContainEqual(
      expect.objectContaining({
        kind: 'resource',
        status: 'succeeded',
        message: expect.stringMatching(/^returning to SDK provider/),
      }),
    );
    const iam = await h.clients.client(IAMClient, REGION);
    expect((await iam.send(new GetRoleCommand({ RoleName: 'returning-role' }))).Role?.Description).toBe(
      'back',
    );
  });

  it('stays on Cloud Control under --pin-cc-api', async () => {
    await roleOnCloudControl('Pinned', 'pinned-role');
    const result = await deploy(
      'Pinned',
      { Role: iamRole({ RoleName: 'pinned-role', Description: 'pinned' }) },
      { routing: { pinCcApi: new Set(['Role']) } },
    );
    expect(result.plan.operations[0]?.routing).toBe('[via CC API: sticky]');
    expect((await record('Pinned', 'Role'))?.provisionedBy).toBe('cc-api');
  });
});

describe('--recreate-via-sdk-provider onto a provider that drops a property', () => {
  it('records only what the SDK provider sent, and a flag-less deploy sends the rest through Cloud Control', async () => {
    await deploy('RecreateOntoSdk', bucket('recreate-onto-sdk', ACCELERATED));
    const onCc = await record('RecreateOntoSdk', 'Store');
    expect(onCc).toMatchObject({ provisionedBy: 'cc-api', properties: ACCELERATED });

    await deploy('RecreateOntoSdk', bucket('recreate-onto-sdk', ACCELERATED), {
      recreateVia: { Store: 'sdk' },
    });
    const onSdk = await record('RecreateOntoSdk', 'Store');
    expect(onSdk?.provisionedBy).toBe('sdk');
    expect(onSdk?.properties).toEqual({ BucketName: 'recreate-onto-sdk' });
    expect(await ccModel(BUCKET, 'recreate-onto-sdk')).not.toHaveProperty('AccelerateConfiguration');

    const plain = await deploy('RecreateOntoSdk', bucket('recreate-onto-sdk', ACCELERATED));
    expect(plain.plan.operations[0]).toMatchObject({
      kind: 'update',
      routing: '[via CC API: AccelerateConfiguration]',
    });
    expect(await ccModel(BUCKET, 'recreate-onto-sdk')).toMatchObject(ACCELERATED);
  });

  it('a create-only drop is claimed by the record, and a flag-less deploy is refused with CREATE_ONLY_DROP_NEEDS_REPLACEMENT', async () => {
    const locked = bucket('recreate-lock-sdk', { ObjectLockEnabled: true });
    await deploy('RecreateLockSdk', locked);
    expect((await record('RecreateLockSdk', 'Store'))?.provisionedBy).toBe('cc-api');

    await deploy('RecreateLockSdk', locked, { recreateVia: { Store: 'sdk' } });
    const onSdk = await record('RecreateLockSdk', 'Store');
    expect(onSdk).toMatchObject({ provisionedBy: 'sdk', properties: { ObjectLockEnabled: true } });
    expect(await ccModel(BUCKET, 'recreate-lock-sdk')).not.toHaveProperty('ObjectLockEnabled');
    await expect(deploy('RecreateLockSdk', locked)).rejects.toMatchObject({
      code: 'CREATE_ONLY_DROP_NEEDS_REPLACEMENT',
      message: expect.stringContaining('--recreate-via-sdk-provider'),
      hint: expect.stringContaining('--recreate-via-cc-api Store'),
    });
    expect(await record('RecreateLockSdk', 'Store')).toEqual(onSdk);
  });
});

import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveResources } from '../helpers/inventory.js';
import { stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';
import { customResourceStack } from './custom-resource-handler.js';

const env = useSandboxEngine('custom-resource-state');
const RECORDS = 'custom-resource-requests';

beforeAll(async () => {
  await (await env.clients.s3()).send(new CreateBucketCommand({ Bucket: RECORDS }));
});

/** The requests the handler got, in order: `{RequestType} {PhysicalResourceId}` and the event. */
async function requests(): Promise<Array<{ line: string; event: Record<string, unknown> }>> {
  const s3 = await env.clients.s3();
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: RECORDS, Prefix: 'requests/' }));
  const keys = (listed.Contents ?? []).map((object) => object.Key!).sort();
  return Promise.all(
    keys.map(async (key) => {
      const body = await s3.send(new GetObjectCommand({ Bucket: RECORDS, Key: key }));
      const [, , type, ...id] = key.split('-');
      return {
        line: `${type} ${id.join('-')}`,
        event: JSON.parse(await body.Body!.transformToString()) as Record<string, unknown>,
      };
    }),
  );
}

async function deploy(
  stackName: string,
  resources: Record<string, unknown>,
  outputs: Record<string, unknown> = {},
) {
  return (await env.engine()).deploy(
    { ...stackIdentity(stackName), template: { Resources: resources, Outputs: outputs } },
    { concurrency: 4 },
  );
}

async function stateOf(stackName: string) {
  return (await env.backend.store.read({ stackName, region: 'us-east-1' }))?.document;
}

const greeting = { Greeting: { Value: { 'Fn::GetAtt': ['Thing', 'Greeting'] } } };

describe('a custom resource served by a real Lambda handler on the sandbox', () => {
  it('is created, updated (a new id deletes the old one in cleanup, the same id does not) and destroyed', async () => {
    const before = (await requests()).length;
    const created = await deploy(
      'Lifecycle',
      customResourceStack(RECORDS, { Name: 'a', Count: 5 }),
      greeting,
    );
    expect(created.outputs.Greeting?.value).toBe('hello a');
    const state = await stateOf('Lifecycle');
    expect(state?.resources.Thing).toMatchObject({
      physicalId: 'thing-a',
      attributes: { Greeting: 'hello a', CountType: 'string' },
    });
    expect(state?.stackId).toMatch(
      /^arn:aws:cloudformation:us-east-1:000000000000:stack\/Lifecycle\/[0-9a-f-]{36}$/,
    );
    const [create] = (await requests()).slice(before);
    expect(create?.event).toMatchObject({
      RequestType: 'Create',
      StackId: state?.stackId,
      LogicalResourceId: 'Thing',
      ResourceType: 'Custom::Thing',
      ResourceProperties: { Name: 'a', Count: '5', ServiceToken: expect.stringContaining(':function:') },
    });

    const renamed = await deploy(
      'Lifecycle',
      customResourceStack(RECORDS, { Name: 'b', Count: 5 }),
      greeting,
    );
    expect(renamed.outputs.Greeting?.value).toBe('hello b');
    const same = await deploy('Lifecycle', customResourceStack(RECORDS, { Name: 'b', Count: 6 }), greeting);
    expect(same.changed).toBe(true);
    expect((await requests()).slice(before).map((request) => request.line)).toEqual([
      'Create thing-a',
      'Update thing-b',
      'Delete thing-a',
      'Update thing-b',
    ]);
    const update = (await requests()).slice(before)[1]!.event;
    expect(update).toMatchObject({
      PhysicalResourceId: 'thing-a',
      ResourceProperties: { Name: 'b' },
      OldResourceProperties: { Name: 'a' },
      StackId: state?.stackId,
    });
    expect((await stateOf('Lifecycle'))?.pendingDeletes).toEqual([]);

    await (await env.engine()).destroy(stackIdentity('Lifecycle'), { concurrency: 4 });
    expect((await requests()).slice(before).at(-1)?.line).toBe('Delete thing-b');
    expect(await stateOf('Lifecycle')).toBeUndefined();
  });

  it('a handler answering FAILED: the Reason in the error, and the automatic rollback leaves nothing', async () => {
    const before = (await requests()).length;
    const failure = await deploy('Failing', customResourceStack(RECORDS, { Name: 'f', Fail: true })).catch(
      (e) => e,
    );
    expect(failure.message).toContain('asked to fail by the template');
    expect(failure.message).toContain('Rolled back');
    // The failed Create named its resource, so the rollback sent it a Delete, as CloudFormation does.
    expect((await requests()).slice(before).map((request) => request.line)).toEqual([
      'Create thing-f',
      'Delete thing-f',
    ]);
    expect(await stateOf('Failing')).toBeUndefined();
    // Lambda itself made the function's log group when it ran, as on AWS: not the stack's.
    const live = await liveResources(env.url);
    expect(
      live.filter(
        (resource) => resource.type !== 'AWS::S3::Bucket' && !resource.id.startsWith('/aws/lambda/'),
      ),
    ).toEqual([]);
  });

  it('a rolled-back Update that had moved to a new id: the old id is live again, the new copy a pending delete', async () => {
    const before = (await requests()).length;
    await deploy('Revert', customResourceStack(RECORDS, { Name: 'a' }));
    const broken = {
      Broken: {
        Type: 'Custom::Thing',
        DependsOn: ['Thing'],
        Properties: { ServiceToken: { 'Fn::GetAtt': ['Handler', 'Arn'] }, Name: 'broken', Fail: true },
      },
    };
    const failure = await deploy(
      'Revert',
      customResourceStack(RECORDS, { Name: 'b' }, { extra: broken }),
    ).catch((e) => e);
    expect(failure.message).toContain('Rolled back');
    const state = await stateOf('Revert');
    expect(state?.resources.Thing).toMatchObject({ physicalId: 'thing-a', properties: { Name: 'a' } });
    expect(state?.pendingDeletes.map((pending) => pending.record.physicalId)).toEqual(['thing-b']);
    await (await env.engine()).destroy(stackIdentity('Revert'), { concurrency: 4 });
    const lines = (await requests()).slice(before).map((request) => request.line);
    expect(lines).toEqual([
      'Create thing-a',
      'Update thing-b',
      'Create thing-broken',
      'Delete thing-broken',
      'Update thing-a',
      'Delete thing-b',
      'Delete thing-a',
    ]);
  });

  it('a change between two custom types whose handler answers the same id is refused (spec 002)', async () => {
    await deploy('TypeChange', customResourceStack(RECORDS, { Name: 'same' }));
    const failure = await deploy(
      'TypeChange',
      customResourceStack(RECORDS, { Name: 'same' }, { type: 'AWS::CloudFormation::CustomResource' }),
    ).catch((e) => e);
    expect(failure.message).toContain('its handler returned thing-same, the resource being replaced');
    expect(failure.cause?.cause).toMatchObject({ code: 'NAMED_REPLACEMENT_IDEMPOTENT_CREATE' });
    const state = await stateOf('TypeChange');
    expect(state?.resources.Thing).toMatchObject({ type: 'Custom::Thing', physicalId: 'thing-same' });
    await (await env.engine()).destroy(stackIdentity('TypeChange'), { concurrency: 4 });
  });
});

import {
  AddTagsToResourceCommand,
  DeleteParameterCommand,
  DescribeParametersCommand,
  GetParameterCommand,
  GetParametersCommand,
  ListTagsForResourceCommand,
  PutParameterCommand,
  RemoveTagsFromResourceCommand,
  type SSMClient,
} from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure, ssmClient } from './helpers.js';

let sandbox: Sandbox;
let ssm: SSMClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  ssm = ssmClient(sandbox);
});
afterAll(async () => {
  ssm.destroy();
  await sandbox.stop();
});

describe('SSM parameter tags', () => {
  it('adds, overwrites, lists and removes tags; a missing parameter or another resource type is refused', async () => {
    await ssm.send(
      new PutParameterCommand({
        Name: 'tagged',
        Type: 'String',
        Value: 'v',
        Tags: [{ Key: 'a', Value: '1' }],
      }),
    );
    const target = { ResourceType: 'Parameter' as const, ResourceId: 'tagged' };
    await ssm.send(
      new AddTagsToResourceCommand({
        ...target,
        Tags: [
          { Key: 'a', Value: '2' },
          { Key: 'b', Value: '3' },
        ],
      }),
    );
    await ssm.send(new RemoveTagsFromResourceCommand({ ...target, TagKeys: ['b', 'absent'] }));
    expect((await ssm.send(new ListTagsForResourceCommand(target))).TagList).toEqual([
      { Key: 'a', Value: '2' },
    ]);
    expect(
      await failure(ssm.send(new ListTagsForResourceCommand({ ...target, ResourceId: 'missing' }))),
    ).toMatchObject({ name: 'InvalidResourceId', status: 400 });
    expect(
      await failure(ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Document', ResourceId: 'x' }))),
    ).toMatchObject({ name: 'InvalidResourceType', status: 400 });
  });
});

describe('SSM parameters', () => {
  it('round-trips a parameter through put, overwrite, get by version and delete', async () => {
    expect(
      await ssm.send(new PutParameterCommand({ Name: '/cfg/url', Type: 'String', Value: 'v1' })),
    ).toMatchObject({
      Version: 1,
      Tier: 'Standard',
    });
    const exists = await failure(
      ssm.send(new PutParameterCommand({ Name: '/cfg/url', Type: 'String', Value: 'v2' })),
    );
    expect(exists).toMatchObject({ name: 'ParameterAlreadyExists', status: 400 });
    expect(
      (await ssm.send(new PutParameterCommand({ Name: '/cfg/url', Value: 'v2', Overwrite: true }))).Version,
    ).toBe(2);

    const current = await ssm.send(new GetParameterCommand({ Name: '/cfg/url' }));
    expect(current.Parameter).toMatchObject({
      Name: '/cfg/url',
      Type: 'String',
      Value: 'v2',
      Version: 2,
      ARN: 'arn:aws:ssm:us-east-1:123456789012:parameter/cfg/url',
      DataType: 'text',
    });
    expect(current.Parameter?.LastModifiedDate).toBeInstanceOf(Date);
    expect((await ssm.send(new GetParameterCommand({ Name: '/cfg/url:1' }))).Parameter?.Value).toBe('v1');
    const noVersion = await failure(ssm.send(new GetParameterCommand({ Name: '/cfg/url:9' })));
    expect(noVersion.name).toBe('ParameterVersionNotFound');

    await ssm.send(new DeleteParameterCommand({ Name: '/cfg/url' }));
    expect((await failure(ssm.send(new GetParameterCommand({ Name: '/cfg/url' })))).name).toBe(
      'ParameterNotFound',
    );
    expect((await failure(ssm.send(new DeleteParameterCommand({ Name: '/cfg/url' })))).name).toBe(
      'ParameterNotFound',
    );
  });

  it('needs a type to create, and knows only the three types', async () => {
    expect((await failure(ssm.send(new PutParameterCommand({ Name: 'untyped', Value: 'x' })))).name).toBe(
      'ValidationException',
    );
    const badType = await failure(
      ssm.send(new PutParameterCommand({ Name: 'bad', Value: 'x', Type: 'Number' as never })),
    );
    expect(badType.name).toBe('UnsupportedParameterType');
  });

  it('returns a SecureString in clear only with decryption', async () => {
    await ssm.send(new PutParameterCommand({ Name: 'secret', Type: 'SecureString', Value: 'hunter2' }));
    const hidden = await ssm.send(new GetParameterCommand({ Name: 'secret' }));
    expect(hidden.Parameter?.Value).not.toBe('hunter2');
    const clear = await ssm.send(new GetParameterCommand({ Name: 'secret', WithDecryption: true }));
    expect(clear.Parameter?.Value).toBe('hunter2');
  });

  it('gets several at once, naming the ones that do not exist', async () => {
    await ssm.send(new PutParameterCommand({ Name: 'a', Type: 'String', Value: '1' }));
    await ssm.send(new PutParameterCommand({ Name: 'b', Type: 'StringList', Value: '2,3' }));
    const output = await ssm.send(new GetParametersCommand({ Names: ['a', 'b', 'missing'] }));
    expect(output.Parameters?.map((p) => [p.Name, p.Value])).toEqual([
      ['a', '1'],
      ['b', '2,3'],
    ]);
    expect(output.InvalidParameters).toEqual(['missing']);
  });

  it('describes parameters with a name filter, page by page', async () => {
    await ssm.send(
      new PutParameterCommand({ Name: '/svc/one', Type: 'String', Value: '1', Description: 'first' }),
    );
    await ssm.send(new PutParameterCommand({ Name: '/svc/two', Type: 'String', Value: '2' }));
    const filters = [{ Key: 'Name', Option: 'BeginsWith', Values: ['/svc/'] }];
    const first = await ssm.send(new DescribeParametersCommand({ ParameterFilters: filters, MaxResults: 1 }));
    expect(first.Parameters?.map((p) => [p.Name, p.Description])).toEqual([['/svc/one', 'first']]);
    const second = await ssm.send(
      new DescribeParametersCommand({ ParameterFilters: filters, MaxResults: 1, NextToken: first.NextToken }),
    );
    expect(second.Parameters?.map((p) => p.Name)).toEqual(['/svc/two']);
    expect(second.NextToken).toBeUndefined();
  });

  it('reads a parameter by its ARN, with a version selector too; an ARN of another account or region names nothing', async () => {
    await ssm.send(new PutParameterCommand({ Name: '/arn/db/host', Type: 'String', Value: 'h1' }));
    await ssm.send(
      new PutParameterCommand({ Name: '/arn/db/host', Type: 'String', Value: 'h2', Overwrite: true }),
    );
    await ssm.send(new PutParameterCommand({ Name: 'arn-plain', Type: 'String', Value: 'p' }));
    const arn = (await ssm.send(new GetParameterCommand({ Name: '/arn/db/host' }))).Parameter!.ARN!;
    expect(arn).toBe('arn:aws:ssm:us-east-1:123456789012:parameter/arn/db/host');
    const byArn = await ssm.send(new GetParameterCommand({ Name: arn }));
    expect([byArn.Parameter?.Name, byArn.Parameter?.Value]).toEqual(['/arn/db/host', 'h2']);
    expect((await ssm.send(new GetParameterCommand({ Name: `${arn}:1` }))).Parameter?.Value).toBe('h1');
    const plain = 'arn:aws:ssm:us-east-1:123456789012:parameter/arn-plain';
    expect((await ssm.send(new GetParameterCommand({ Name: plain }))).Parameter?.Value).toBe('p');
    for (const other of [
      'arn:aws:ssm:us-east-1:210987654321:parameter/arn/db/host',
      'arn:aws:ssm:eu-west-1:123456789012:parameter/arn/db/host',
    ]) {
      expect((await failure(ssm.send(new GetParameterCommand({ Name: other })))).name).toBe(
        'ParameterNotFound',
      );
    }
    const both = await ssm.send(new GetParametersCommand({ Names: [arn, plain, `${plain}x`] }));
    expect(both.Parameters?.map((p) => p.Value)).toEqual(['h2', 'p']);
    expect(both.InvalidParameters).toEqual([`${plain}x`]);
  });
});

import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { registerSsm } from '../../src/providers/ssm/index.js';
import { ParameterProvider } from '../../src/providers/ssm/parameter.js';
import { SSM_REF_ATTRIBUTES } from '../../src/providers/ssm/ref-attributes.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { eventsTo } from '../helpers/recording-io-host.js';

useSandbox();
const type = 'AWS::SSM::Parameter';
const parameters = new ParameterProvider();
let context: ProviderContext;
let ssm: SSMClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: 'us-east-1' });
  context = { clients, accountId: '000000000000', region: 'us-east-1', stackName: 'SsmStack' };
  ssm = await clients.client(SSMClient, 'us-east-1');
});

const value = async (name: string) =>
  (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;

describe('AWS::SSM::Parameter', () => {
  it('creates, updates in place, reads back and deletes', async () => {
    const properties = {
      Name: '/app/flag',
      Type: 'String',
      Value: 'on',
      Description: 'first',
      Tags: { team: 'a' },
    };
    const created = await parameters.create({ logicalId: 'Flag', type, properties }, context);
    expect(created.physicalId).toBe('/app/flag');
    expect(created.attributes).toEqual({ Type: 'String', Value: 'on' });
    expect(created.creationIdentity).toMatchObject({
      Arn: 'arn:aws:ssm:us-east-1:000000000000:parameter/app/flag',
    });
    const request = { logicalId: 'Flag', type, physicalId: '/app/flag' };
    const next = {
      ...properties,
      Type: 'StringList',
      Value: 'a,b',
      Description: 'second',
      Tags: { team: 'b', env: 'dev' },
    };
    const updated = await parameters.update(
      { ...request, properties: next, previousProperties: properties },
      context,
    );
    expect(updated.attributes).toEqual({ Type: 'StringList', Value: 'a,b' });
    expect(await value('/app/flag')).toBe('a,b');
    expect((await parameters.read({ ...request, properties: next }, context))!.properties).toMatchObject({
      Name: '/app/flag',
      Type: 'StringList',
      Value: 'a,b',
      Description: 'second',
      Tags: { team: 'b', env: 'dev' },
    });
    const untagged = { ...next, Tags: { env: 'dev' } };
    await parameters.update({ ...request, properties: untagged, previousProperties: next }, context);
    expect((await parameters.read({ ...request, properties: untagged }, context))!.properties.Tags).toEqual({
      env: 'dev',
    });
    await parameters.delete({ ...request, properties: next }, context);
    expect(await parameters.read({ ...request, properties: next }, context)).toBeUndefined();
    await parameters.delete({ ...request, properties: next }, context);
  });

  it('names an unnamed parameter and reports what it cannot send', async () => {
    const created = await parameters.create(
      { logicalId: 'Unnamed', type, properties: { Type: 'String', Value: 'v' } },
      context,
    );
    // SSM refuses names starting with "ssm": the stack part SsmStack becomes CFN, as CloudFormation names it.
    expect(created.physicalId).toMatch(/^CFN-Unnamed-[A-Z0-9]{12}$/);
    expect(parameters.uncoveredProperties(type, { Type: 'String', Value: 'v', Policies: '[]' })).toEqual([
      'Policies',
    ]);
    expect(parameters.canUpdateInPlace(type, ['Value', 'Type', 'Description', 'Tier'])).toBe(true);
    expect(parameters.canUpdateInPlace(type, ['Name'])).toBe(false);
  });

  it.each(Object.entries(SSM_REF_ATTRIBUTES))('Ref and GetAtt row %s', async (_type, row) => {
    const properties = { Name: 'ref-row', Type: 'String', Value: 'x' };
    const created = await parameters.create({ logicalId: 'Row', type, properties }, context);
    expect(row.ref).toBe('physicalId');
    expect(created.ref).toBeUndefined();
    const expected = Object.fromEntries(
      Object.entries(row.attributes).map(([name, shape]) => [
        name,
        shape.replace('{Type}', 'String').replace('{Value}', 'x'),
      ]),
    );
    expect(created.attributes).toEqual(expected);
  });

  it('a Name change replaces through the engine: new parameter made, old one deleted', async () => {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'ssm-engine-state' }));
    const backend = await openStateBackend(clients, 'ssm-engine-state', 'cdkd');
    const registry = new ProviderRegistry(new CloudControlProvider());
    registerSsm(registry);
    const engine = await createEngine({
      backend,
      clients,
      registry,
      io: eventsTo(() => {}),
      command: 'deploy',
      regions: ['us-east-1'],
    });
    const template = (name: string) => ({
      Resources: { P: { Type: type, Properties: { Name: name, Type: 'String', Value: 'v' } } },
    });
    const request = {
      stateName: 'SsmReplace',
      stackName: 'SsmReplace',
      region: 'us-east-1',
      accountId: '000000000000',
    };
    await engine.deploy({ ...request, template: template('first-param') }, { concurrency: 2 });
    await engine.deploy({ ...request, template: template('second-param') }, { concurrency: 2 });
    expect(await value('second-param')).toBe('v');
    await expect(value('first-param')).rejects.toMatchObject({ name: 'ParameterNotFound' });
  });
});

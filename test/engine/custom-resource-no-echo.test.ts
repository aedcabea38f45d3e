import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import { stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';
import { customResourceStack } from './custom-resource-handler.js';

const BUCKET = 'custom-resource-no-echo-state';
const env = useSandboxEngine(BUCKET);
const RECORDS = 'custom-resource-no-echo-requests';
/** What the recording handler answers as Data.Greeting for the Name `s3cr3t`: the value to hide. */
const SECRET = 'hello s3cr3t';

beforeAll(async () => {
  await (await env.clients.s3()).send(new CreateBucketCommand({ Bucket: RECORDS }));
});

/** Every object of the stack in the state bucket, key → text. */
async function stateObjects(stackName: string): Promise<Map<string, string>> {
  const s3 = await env.clients.s3();
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `cdkd/${stackName}/` }));
  const objects = new Map<string, string>();
  for (const { Key } of listed.Contents ?? []) {
    const body = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: Key! }));
    objects.set(Key!, await body.Body!.transformToString());
  }
  return objects;
}

/** The keys of the stack's objects holding the secret in clear. */
async function keysHoldingSecret(stackName: string, secret = SECRET): Promise<string[]> {
  return [...(await stateObjects(stackName))].filter(([, text]) => text.includes(secret)).map(([key]) => key);
}

async function parameterValue(name: string): Promise<string | undefined> {
  const ssm = await env.clients.client(SSMClient, 'us-east-1');
  return (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
}

/** A parameter named `name` whose value reads the custom resource's Greeting. */
function reader(name: string) {
  return {
    Type: 'AWS::SSM::Parameter',
    Properties: { Name: name, Type: 'String', Value: { 'Fn::GetAtt': ['Thing', 'Greeting'] } },
  };
}

function template(readers: Record<string, unknown>, name = 's3cr3t') {
  return {
    Resources: customResourceStack(RECORDS, { Name: name, Secret: true }, { extra: readers }),
    Outputs: { Greeting: { Value: { 'Fn::GetAtt': ['Thing', 'Greeting'] } } },
  };
}

async function deploy(stackName: string, body: { Resources: unknown; Outputs?: unknown }) {
  return (await env.engine()).deploy(
    { ...stackIdentity(stackName), template: body as Record<string, unknown> },
    { concurrency: 4 },
  );
}

const readers = {
  FirstReader: reader('/no-echo/first'),
  ChainedReader: {
    Type: 'AWS::SSM::Parameter',
    Properties: {
      Name: '/no-echo/chained',
      Type: 'String',
      Value: { 'Fn::GetAtt': ['FirstReader', 'Value'] },
    },
  },
};

describe('a custom resource whose handler answers NoEcho: true', () => {
  it('its Data reaches the readers in clear, in this deploy and later ones, and is masked everywhere else', async () => {
    const first = await deploy('Secretive', template(readers));
    expect(await parameterValue('/no-echo/first')).toBe(SECRET);
    // The reader's own attribute echoes the secret: masked in its record, in clear for its readers.
    expect(await parameterValue('/no-echo/chained')).toBe(SECRET);
    expect(first.outputs.Greeting?.value).toBe('***');
    const state = (await env.backend.store.read({ stackName: 'Secretive', region: 'us-east-1' }))!.document;
    expect(state.resources.Thing).toMatchObject({
      noEchoAttributes: true,
      attributes: { Greeting: '***', CountType: '***', Old: '***' },
    });
    expect(state.resources.FirstReader).toMatchObject({
      properties: { Value: '***' },
      attributes: { Value: '***' },
      noEchoAttributes: true,
    });
    expect(JSON.stringify(env.events)).not.toContain(SECRET);
    // Only the no-echo data holds it; state, journal and the event log do not.
    expect(await keysHoldingSecret('Secretive')).toEqual(['cdkd/Secretive/us-east-1/no-echo-data.json']);

    // The reader's recorded hash is of the real value: a redeploy changes nothing.
    const again = await deploy('Secretive', template(readers));
    expect(again.changed).toBe(false);

    // A reader added later resolves the value the handler answered in the first deploy.
    const later = await deploy('Secretive', template({ ...readers, LaterReader: reader('/no-echo/later') }));
    expect(later.plan.operations.find((op) => op.logicalId === 'Thing')?.kind).toBe('no-op');
    expect(await parameterValue('/no-echo/later')).toBe(SECRET);
    expect(later.outputs.Greeting?.value).toBe('***');
    expect(JSON.stringify(env.events)).not.toContain(SECRET);
    expect(await keysHoldingSecret('Secretive')).toEqual(['cdkd/Secretive/us-east-1/no-echo-data.json']);

    await (await env.engine()).destroy(stackIdentity('Secretive'), { concurrency: 4 });
    // The event log is kept after a destroy, as ever; it never held the value.
    expect([...(await stateObjects('Secretive')).keys()].filter((key) => !key.includes('/events/'))).toEqual(
      [],
    );
  });

  it('an answer without NoEcho after one with it leaves no no-echo data behind', async () => {
    await deploy('Unmasked', template({}));
    expect([...(await stateObjects('Unmasked')).keys()]).toContain(
      'cdkd/Unmasked/us-east-1/no-echo-data.json',
    );
    await deploy('Unmasked', { Resources: customResourceStack(RECORDS, { Name: 's3cr3t', Secret: false }) });
    const state = (await env.backend.store.read({ stackName: 'Unmasked', region: 'us-east-1' }))!.document;
    expect(state.resources.Thing?.attributes.Greeting).toBe(SECRET);
    expect(state.resources.Thing?.noEchoAttributes).toBeUndefined();
    expect([...(await stateObjects('Unmasked')).keys()]).not.toContain(
      'cdkd/Unmasked/us-east-1/no-echo-data.json',
    );
    await (await env.engine()).destroy(stackIdentity('Unmasked'), { concurrency: 4 });
  });

  it('a rolled-back first deploy keeps nothing; a rolled-back update keeps the answer the revert got', async () => {
    const broken = {
      Broken: {
        Type: 'Custom::Thing',
        DependsOn: ['Thing'],
        Properties: { ServiceToken: { 'Fn::GetAtt': ['Handler', 'Arn'] }, Name: 'broken', Fail: true },
      },
    };
    const failed = await deploy('RolledBack', template(broken)).catch((error) => error);
    expect(failed.message).toContain('Rolled back');
    expect([...(await stateObjects('RolledBack')).keys()].filter((key) => !key.includes('/events/'))).toEqual(
      [],
    );

    await deploy('Reverted', template({ Reader: reader('/no-echo/reverted') }, 'first'));
    const update = await deploy(
      'Reverted',
      template({ Reader: reader('/no-echo/reverted'), ...broken }, 'second'),
    ).catch((error) => error);
    expect(update.message).toContain('Rolled back');
    expect(await parameterValue('/no-echo/reverted')).toBe('hello first');
    expect(await keysHoldingSecret('Reverted', 'hello first')).toEqual([
      'cdkd/Reverted/us-east-1/no-echo-data.json',
    ]);
    const objects = await stateObjects('Reverted');
    const data = JSON.parse(objects.get('cdkd/Reverted/us-east-1/no-echo-data.json')!);
    // The copy the update made is a pending delete until the next cleanup, its Data kept with it.
    expect(data.resources.Thing).toEqual({
      'thing-first': { Greeting: 'hello first', CountType: 'undefined', Old: 'second' },
      'thing-second': { Greeting: 'hello second', CountType: 'undefined', Old: 'first' },
    });
    await (await env.engine()).destroy(stackIdentity('Reverted'), { concurrency: 4 });
    expect([...(await stateObjects('Reverted')).keys()].filter((key) => !key.includes('/events/'))).toEqual(
      [],
    );
  });
});

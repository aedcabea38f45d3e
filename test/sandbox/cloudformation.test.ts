import { CloudFormationClient, DescribeTypeCommand } from '@aws-sdk/client-cloudformation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRegistrySchema } from '../../src/plan/index.js';
import { knownTypes } from '../../src/resource-types/index.js';
import { sandboxSchemaFor } from '../../src/sandbox/resource-index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { registrySchemaDocument } from '../../src/sandbox/services/cloudformation/registry-schema.js';
import { admin, failure } from './helpers.js';

let sandbox: Sandbox;
let cloudformation: CloudFormationClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cloudformation = new CloudFormationClient({
    endpoint: sandbox.url,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  cloudformation.destroy();
  await sandbox.stop();
});

describe('CloudFormation DescribeType (the registry, from the resource index)', () => {
  it('answers a public resource type with its schema as a JSON string, create-only properties as pointers', async () => {
    const answer = await cloudformation.send(
      new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: 'AWS::SQS::Queue' }),
    );
    expect(answer).toMatchObject({
      Type: 'RESOURCE',
      TypeName: 'AWS::SQS::Queue',
      Arn: 'arn:aws:cloudformation:eu-west-1::type/resource/AWS-SQS-Queue',
      IsDefaultVersion: true,
      Visibility: 'PUBLIC',
      ProvisioningType: 'FULLY_MUTABLE',
    });
    const schema = JSON.parse(answer.Schema!) as Record<string, unknown>;
    expect(schema).toMatchObject({
      typeName: 'AWS::SQS::Queue',
      additionalProperties: false,
      createOnlyProperties: ['/properties/FifoQueue', '/properties/QueueName'],
      primaryIdentifier: ['/properties/QueueUrl'],
    });
    expect(schema.readOnlyProperties).toContain('/properties/Arn');
    expect(Object.keys(schema.properties as object)).toContain('VisibilityTimeout');
    expect(answer.LastUpdated).toBeInstanceOf(Date);
  });

  it("names as write-only what the sandbox's Cloud Control read leaves out: a function's Code", async () => {
    const schema = async (TypeName: string) =>
      JSON.parse(
        (await cloudformation.send(new DescribeTypeCommand({ Type: 'RESOURCE', TypeName }))).Schema!,
      ) as Record<string, unknown>;
    const fn = await schema('AWS::Lambda::Function');
    expect(fn.writeOnlyProperties).toEqual(['/properties/Code']);
    expect(parseRegistrySchema(JSON.stringify(fn))?.writeOnly).toEqual(['Code']);
    expect((await schema('AWS::SSM::Parameter')).writeOnlyProperties).toEqual([
      '/properties/AllowedPattern',
      '/properties/Policies',
    ]);
    // The queue's read returns all it was given.
    expect((await schema('AWS::SQS::Queue')).writeOnlyProperties).toBeUndefined();
  });

  it('answers by Arn as by name', async () => {
    const answer = await cloudformation.send(
      new DescribeTypeCommand({ Arn: 'arn:aws:cloudformation:eu-west-1::type/resource/AWS-DynamoDB-Table' }),
    );
    expect(answer.TypeName).toBe('AWS::DynamoDB::Table');
    expect(JSON.parse(answer.Schema!).createOnlyProperties).toContain('/properties/TableName');
  });

  it.each(['Acme::Private::Widget', 'Custom::Thing'])(
    'a type the registry does not know (%s) is TypeNotFoundException, 404',
    async (typeName) => {
      const error = await failure(
        cloudformation.send(new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: typeName })),
      );
      expect(error).toMatchObject({ name: 'TypeNotFoundException', status: 404 });
      expect(error.error.message).toBe(`The type '${typeName}' cannot be found.`);
    },
  );

  it('a call naming no type is a ValidationError', async () => {
    expect(await failure(cloudformation.send(new DescribeTypeCommand({})))).toMatchObject({
      name: 'ValidationError',
      status: 400,
    });
  });

  it('a denied call answers AccessDenied (403) through the fault API, as IAM would', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 'cloudformation',
      operation: 'DescribeType',
      errorCode: 'AccessDenied',
      httpStatus: 403,
      message: 'User is not authorized to perform: cloudformation:DescribeType',
    });
    const denied = await failure(
      cloudformation.send(new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: 'AWS::SQS::Queue' })),
    );
    expect(denied).toMatchObject({ name: 'AccessDenied', status: 403 });
    const { json } = await admin(sandbox, 'GET', 'calls');
    expect(json.calls['cloudformation:DescribeType']).toMatchObject({ mutating: false });
  });

  it("every type's schema document gives back the index's create-only facts", () => {
    const mismatched = knownTypes().filter((type) => {
      const schema = sandboxSchemaFor(type)!;
      const parsed = parseRegistrySchema(registrySchemaDocument(type, schema));
      return (
        JSON.stringify(parsed) !==
        JSON.stringify({
          createOnly: schema.replace ?? [],
          nested: schema.nested ?? [],
          conditional: schema.maybe ?? [],
          writeOnly: [],
        })
      );
    });
    expect(mismatched).toEqual([]);
  });
});

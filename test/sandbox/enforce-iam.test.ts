import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  AttachRolePolicyCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  IAMClient,
  PutRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateFunctionCommand, GetFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, DeleteQueueCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../assembly/helpers.js';
import { useSandbox } from '../helpers/sandbox.js';

const ACCOUNT = '222222222222';
const sandbox = useSandbox({ enforceIam: true });

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}
const ROOT: Credentials = { accessKeyId: ACCOUNT, secretAccessKey: 'sandbox-secret' };

const config = (credentials: Credentials, region = 'us-east-1', url = sandbox.current.url) => ({
  endpoint: url,
  region,
  forcePathStyle: true,
  credentials,
});

const TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: 'sts:AssumeRole' },
  ],
});
const policy = (...statements: Array<Record<string, unknown>>) =>
  JSON.stringify({ Version: '2012-10-17', Statement: statements });

let roles = 0;
/** A role in ACCOUNT with these inline policies, managed policies and boundary, assumed: its credentials. */
async function roleWith(
  options: { inline?: string[]; managed?: string[]; boundary?: string },
  url = sandbox.current.url,
): Promise<Credentials & { roleName: string }> {
  const iam = new IAMClient(config(ROOT, 'us-east-1', url));
  const roleName = `role-${++roles}`;
  await iam.send(
    new CreateRoleCommand({
      RoleName: roleName,
      AssumeRolePolicyDocument: TRUST,
      ...(options.boundary ? { PermissionsBoundary: options.boundary } : {}),
    }),
  );
  for (const [at, document] of (options.inline ?? []).entries()) {
    await iam.send(
      new PutRolePolicyCommand({ RoleName: roleName, PolicyName: `p${at}`, PolicyDocument: document }),
    );
  }
  for (const arn of options.managed ?? [])
    await iam.send(new AttachRolePolicyCommand({ RoleName: roleName, PolicyArn: arn }));
  const sts = new STSClient(config(ROOT, 'us-east-1', url));
  const assumed = await sts.send(
    new AssumeRoleCommand({ RoleArn: `arn:aws:iam::${ACCOUNT}:role/${roleName}`, RoleSessionName: 'tester' }),
  );
  return {
    roleName,
    accessKeyId: assumed.Credentials!.AccessKeyId!,
    secretAccessKey: assumed.Credentials!.SecretAccessKey!,
    sessionToken: assumed.Credentials!.SessionToken!,
  };
}

async function managedPolicy(name: string, document: string): Promise<string> {
  const iam = new IAMClient(config(ROOT));
  return (await iam.send(new CreatePolicyCommand({ PolicyName: name, PolicyDocument: document }))).Policy!
    .Arn!;
}

/** The error a call fails with (the test fails if it succeeds). */
async function failure(
  call: Promise<unknown>,
): Promise<{ name: string; status: number; message: string; Code?: string }> {
  const error = (await call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (caught: unknown) => caught,
  )) as { name: string; message: string; Code?: string; $metadata: { httpStatusCode: number } };
  return {
    name: error.name,
    status: error.$metadata.httpStatusCode,
    message: error.message,
    Code: error.Code,
  };
}

const denied = (role: string, action: string, resource: string | undefined, why: string) =>
  `User: arn:aws:sts::${ACCOUNT}:assumed-role/${role}/tester is not authorized to perform: ${action}${resource ? ` on resource: ${resource}` : ''} ${why}`;
const noIdentityAllow = (action: string) => `because no identity-based policy allows the ${action} action`;

describe('--enforce-iam: a role allowed sqs:CreateQueue only', () => {
  it('creates a queue and is refused everything else, in each protocol’s own error shape', async () => {
    const role = await roleWith({
      inline: [policy({ Effect: 'Allow', Action: 'sqs:CreateQueue', Resource: '*' })],
    });
    const created = await new SQSClient(config(role)).send(new CreateQueueCommand({ QueueName: 'allowed' }));
    expect(created.QueueUrl).toContain(`/${ACCOUNT}/allowed`);

    // Query protocol (SNS's own code and action casing).
    const topic = `arn:aws:sns:us-east-1:${ACCOUNT}:orders`;
    expect(
      await failure(new SNSClient(config(role)).send(new CreateTopicCommand({ Name: 'orders' }))),
    ).toEqual({
      name: 'AuthorizationErrorException',
      status: 403,
      message: denied(role.roleName, 'SNS:CreateTopic', topic, noIdentityAllow('SNS:CreateTopic')),
      Code: 'AuthorizationError',
    });
    // Query protocol, XML: IAM.
    const iamError = await failure(
      new IAMClient(config(role)).send(
        new CreateRoleCommand({ RoleName: 'other', AssumeRolePolicyDocument: TRUST }),
      ),
    );
    expect(iamError).toMatchObject({ name: 'AccessDenied', status: 403 });
    expect(iamError.message).toBe(
      denied(
        role.roleName,
        'iam:CreateRole',
        `arn:aws:iam::${ACCOUNT}:role/other`,
        noIdentityAllow('iam:CreateRole'),
      ),
    );
    // JSON 1.0: DynamoDB.
    const table = await failure(
      new DynamoDBClient(config(role)).send(
        new CreateTableCommand({
          TableName: 'items',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        }),
      ),
    );
    expect(table).toMatchObject({ name: 'AccessDeniedException', status: 403 });
    expect(table.message).toBe(
      denied(
        role.roleName,
        'dynamodb:CreateTable',
        `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/items`,
        noIdentityAllow('dynamodb:CreateTable'),
      ),
    );
    // JSON 1.1: SSM.
    const parameter = await failure(
      new SSMClient(config(role)).send(
        new PutParameterCommand({ Name: '/app/flag', Value: 'on', Type: 'String' }),
      ),
    );
    expect(parameter).toMatchObject({ name: 'AccessDeniedException', status: 403 });
    expect(parameter.message).toContain(
      `ssm:PutParameter on resource: arn:aws:ssm:us-east-1:${ACCOUNT}:parameter/app/flag`,
    );
    // REST-JSON: Lambda.
    const fn = await failure(
      new LambdaClient(config(role)).send(new GetFunctionCommand({ FunctionName: 'worker' })),
    );
    expect(fn).toMatchObject({ name: 'AccessDeniedException', status: 403 });
    expect(fn.message).toBe(
      denied(
        role.roleName,
        'lambda:GetFunction',
        `arn:aws:lambda:us-east-1:${ACCOUNT}:function:worker`,
        noIdentityAllow('lambda:GetFunction'),
      ),
    );
    // REST-XML: S3.
    const bucket = await failure(
      new S3Client(config(role)).send(new CreateBucketCommand({ Bucket: 'denied-bucket' })),
    );
    expect(bucket).toMatchObject({ name: 'AccessDenied', status: 403 });
    expect(bucket.message).toBe(
      denied(
        role.roleName,
        's3:CreateBucket',
        'arn:aws:s3:::denied-bucket',
        noIdentityAllow('s3:CreateBucket'),
      ),
    );
    // SQS's JSON protocol carries the query code AccessDenied beside its type.
    const deleted = await failure(
      new SQSClient(config(role)).send(new DeleteQueueCommand({ QueueUrl: created.QueueUrl })),
    );
    expect(deleted).toMatchObject({ status: 403 });
    expect(deleted.message).toBe(
      denied(
        role.roleName,
        'sqs:DeleteQueue',
        `arn:aws:sqs:us-east-1:${ACCOUNT}:allowed`,
        noIdentityAllow('sqs:DeleteQueue'),
      ),
    );
  });

  it('GetCallerIdentity needs no permission and answers the assumed role', async () => {
    const role = await roleWith({});
    const identity = await new STSClient(config(role)).send(new GetCallerIdentityCommand({}));
    expect(identity.Arn).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/${role.roleName}/tester`);
    expect(identity.Account).toBe(ACCOUNT);
    expect(identity.UserId).toMatch(/^AROA[A-Z0-9]+:tester$/);
  });

  it("the account's own keys are never checked", async () => {
    const topic = await new SNSClient(config(ROOT)).send(new CreateTopicCommand({ Name: 'root-topic' }));
    expect(topic.TopicArn).toBe(`arn:aws:sns:us-east-1:${ACCOUNT}:root-topic`);
  });
});

describe('--enforce-iam: the rules of a policy', () => {
  it('an explicit Deny beats AdministratorAccess', async () => {
    const role = await roleWith({
      managed: ['arn:aws:iam::aws:policy/AdministratorAccess'],
      inline: [policy({ Effect: 'Deny', Action: 'sqs:DeleteQueue', Resource: '*' })],
    });
    const sqs = new SQSClient(config(role));
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'kept' }));
    const error = await failure(sqs.send(new DeleteQueueCommand({ QueueUrl })));
    expect(error.message).toBe(
      denied(
        role.roleName,
        'sqs:DeleteQueue',
        `arn:aws:sqs:us-east-1:${ACCOUNT}:kept`,
        'with an explicit deny in an identity-based policy',
      ),
    );
  });

  it('NotAction allows everything but the actions it names', async () => {
    const role = await roleWith({ inline: [policy({ Effect: 'Allow', NotAction: 'sns:*', Resource: '*' })] });
    await new SQSClient(config(role)).send(new CreateQueueCommand({ QueueName: 'not-action' }));
    const error = await failure(new SNSClient(config(role)).send(new CreateTopicCommand({ Name: 'nope' })));
    expect(error.Code).toBe('AuthorizationError');
  });

  it('a resource wildcard allows the queues it matches only', async () => {
    const role = await roleWith({
      inline: [policy({ Effect: 'Allow', Action: 'sqs:*', Resource: `arn:aws:sqs:*:${ACCOUNT}:app-*` })],
    });
    const sqs = new SQSClient(config(role));
    await sqs.send(new CreateQueueCommand({ QueueName: 'app-orders' }));
    const error = await failure(sqs.send(new CreateQueueCommand({ QueueName: 'other-orders' })));
    expect(error.message).toBe(
      denied(
        role.roleName,
        'sqs:CreateQueue',
        `arn:aws:sqs:us-east-1:${ACCOUNT}:other-orders`,
        noIdentityAllow('sqs:CreateQueue'),
      ),
    );
  });

  it('a condition on aws:RequestedRegion allows one region only', async () => {
    const role = await roleWith({
      inline: [
        policy({
          Effect: 'Allow',
          Action: 'sqs:*',
          Resource: '*',
          Condition: { StringEquals: { 'aws:RequestedRegion': 'eu-west-1' } },
        }),
      ],
    });
    await new SQSClient(config(role, 'eu-west-1')).send(new CreateQueueCommand({ QueueName: 'in-eu' }));
    const error = await failure(
      new SQSClient(config(role)).send(new CreateQueueCommand({ QueueName: 'in-us' })),
    );
    expect(error.status).toBe(403);
  });

  it('a permissions boundary narrows AdministratorAccess', async () => {
    const boundary = await managedPolicy(
      'queues-only',
      policy({ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }),
    );
    const role = await roleWith({ managed: ['arn:aws:iam::aws:policy/AdministratorAccess'], boundary });
    await new SQSClient(config(role)).send(new CreateQueueCommand({ QueueName: 'bounded' }));
    const error = await failure(
      new SNSClient(config(role)).send(new CreateTopicCommand({ Name: 'unbounded' })),
    );
    expect(error.message).toBe(
      denied(
        role.roleName,
        'SNS:CreateTopic',
        `arn:aws:sns:us-east-1:${ACCOUNT}:unbounded`,
        'because no permissions boundary allows the SNS:CreateTopic action',
      ),
    );
  });
  it('the modeled ReadOnlyAccess reads and changes nothing; an AWS managed policy the sandbox does not model allows nothing', async () => {
    const reader = await roleWith({ managed: ['arn:aws:iam::aws:policy/ReadOnlyAccess'] });
    const sqs = new SQSClient(config(reader));
    expect((await sqs.send(new ListQueuesCommand({}))).QueueUrls).toBeDefined();
    expect((await failure(sqs.send(new CreateQueueCommand({ QueueName: 'read-only' })))).status).toBe(403);

    const unmodeled = await roleWith({ managed: ['arn:aws:iam::aws:policy/AmazonMQFullAccess'] });
    expect((await failure(new SQSClient(config(unmodeled)).send(new ListQueuesCommand({})))).status).toBe(
      403,
    );
  });

  it('handing a service a role needs iam:PassRole on it', async () => {
    const fnRole = `arn:aws:iam::${ACCOUNT}:role/fn-role`;
    const create = (credentials: Credentials) =>
      new LambdaClient(config(credentials)).send(
        new CreateFunctionCommand({
          FunctionName: 'passes-role',
          Role: fnRole,
          Runtime: 'nodejs20.x',
          Handler: 'index.handler',
          Code: { ZipFile: new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]) },
        }),
      );
    const lambdaOnly = await roleWith({
      inline: [policy({ Effect: 'Allow', Action: 'lambda:*', Resource: '*' })],
    });
    const error = await failure(create(lambdaOnly));
    expect(error).toMatchObject({ name: 'AccessDeniedException', status: 403 });
    expect(error.message).toBe(
      denied(lambdaOnly.roleName, 'iam:PassRole', fnRole, noIdentityAllow('iam:PassRole')),
    );

    const passing = await roleWith({
      inline: [
        policy(
          { Effect: 'Allow', Action: 'lambda:*', Resource: '*' },
          { Effect: 'Allow', Action: 'iam:PassRole', Resource: fnRole },
        ),
      ],
    });
    expect((await create(passing)).FunctionName).toBe('passes-role');
  });
});

describe('--enforce-iam as a setting', () => {
  it('PUT /_sandbox/iam turns it off and on while running', async () => {
    const role = await roleWith({});
    const sns = new SNSClient(config(role));
    const put = (enforce: boolean) =>
      fetch(`${sandbox.current.url}/_sandbox/iam`, { method: 'PUT', body: JSON.stringify({ enforce }) });
    expect(await (await put(false)).json()).toEqual({ enforce: false });
    await sns.send(new CreateTopicCommand({ Name: 'while-off' }));
    expect(await (await put(true)).json()).toEqual({ enforce: true });
    expect((await failure(sns.send(new CreateTopicCommand({ Name: 'while-on' })))).status).toBe(403);
    // Newest first: the refused call is listed like any other.
    const recent = (await (await fetch(`${sandbox.current.url}/_sandbox/calls/recent`)).json()) as {
      calls: Array<{ service: string; operation: string; status: number }>;
    };
    expect(
      recent.calls
        .filter((call) => call.operation === 'CreateTopic')
        .map((call) => call.status)
        .slice(0, 2),
    ).toEqual([403, 200]);
    expect(await (await fetch(`${sandbox.current.url}/_sandbox/iam`)).json()).toEqual({ enforce: true });
    const bad = await fetch(`${sandbox.current.url}/_sandbox/iam`, {
      method: 'PUT',
      body: '{"enforce":"yes"}',
    });
    expect(bad.status).toBe(400);
  });

  it('is off by default, and a role session outlives a restart of a sandbox with a data dir', async () => {
    const dataDir = tempDir();
    const first = await startSandbox({ port: 0, dataDir });
    const role = await roleWith({}, first.url);
    // Permissive by default: the role with no policy creates a topic.
    await new SNSClient(config(role, 'us-east-1', first.url)).send(
      new CreateTopicCommand({ Name: 'permissive' }),
    );
    await first.stop();
    const second = await startSandbox({ port: 0, dataDir, enforceIam: true });
    try {
      const identity = await new STSClient(config(role, 'us-east-1', second.url)).send(
        new GetCallerIdentityCommand({}),
      );
      expect(identity.Arn).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/${role.roleName}/tester`);
      const error = await failure(
        new SNSClient(config(role, 'us-east-1', second.url)).send(
          new CreateTopicCommand({ Name: 'after-restart' }),
        ),
      );
      expect(error.Code).toBe('AuthorizationError');
    } finally {
      await second.stop();
    }
  });
});

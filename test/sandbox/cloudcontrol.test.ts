import {
  CancelResourceRequestCommand,
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  GetResourceRequestStatusCommand,
  ListResourceRequestsCommand,
  ListResourcesCommand,
  UpdateResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, failure, settle } from './helpers.js';

let sandbox: Sandbox;
let cc: CloudControlClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  cc = cloudControlClient(sandbox);
});
afterAll(async () => {
  cc.destroy();
  await sandbox.stop();
});
beforeEach(async () => {
  await admin(sandbox, 'PUT', 'latency', {});
});

async function create(type: string, desired: Record<string, unknown>, clientToken?: string) {
  const accepted = await cc.send(
    new CreateResourceCommand({
      TypeName: type,
      DesiredState: JSON.stringify(desired),
      ClientToken: clientToken,
    }),
  );
  return settle(cc, accepted.ProgressEvent!);
}

async function get(type: string, identifier: string): Promise<Record<string, unknown>> {
  const output = await cc.send(new GetResourceCommand({ TypeName: type, Identifier: identifier }));
  expect(output.ResourceDescription?.Identifier).toBe(identifier);
  return JSON.parse(output.ResourceDescription!.Properties!) as Record<string, unknown>;
}

describe('Cloud Control: create, get, update, delete, list', () => {
  const cases: Array<{
    type: string;
    desired: Record<string, unknown>;
    /** `{sandbox}` stands for the sandbox's URL. */
    identifier: string;
    /** The id the inventory lists it by, when not the identifier. */
    listedAs?: string;
    attributes: Record<string, unknown>;
    patch: { path: string; value: unknown };
  }> = [
    {
      type: 'AWS::SQS::Queue',
      desired: { QueueName: 'orders' },
      // The QueueUrl the SQS API answers: on the sandbox, so an SDK client sends the queue's calls back to it.
      identifier: '{sandbox}/123456789012/orders',
      listedAs: 'orders',
      attributes: { Arn: 'arn:aws:sqs:us-east-1:123456789012:orders', QueueName: 'orders' },
      patch: { path: '/VisibilityTimeout', value: 60 },
    },
    {
      type: 'AWS::IAM::Role',
      desired: {
        RoleName: 'app-role',
        Path: '/svc/',
        AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [] },
      },
      identifier: 'app-role',
      attributes: { Arn: 'arn:aws:iam::123456789012:role/svc/app-role' },
      patch: { path: '/Description', value: 'runs the app' },
    },
    {
      type: 'AWS::SNS::Topic',
      desired: { TopicName: 'alerts' },
      identifier: 'arn:aws:sns:us-east-1:123456789012:alerts',
      attributes: { TopicArn: 'arn:aws:sns:us-east-1:123456789012:alerts', TopicName: 'alerts' },
      patch: { path: '/DisplayName', value: 'Alerts' },
    },
    {
      type: 'AWS::DynamoDB::Table',
      desired: {
        TableName: 'users',
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
      identifier: 'users',
      attributes: { Arn: 'arn:aws:dynamodb:us-east-1:123456789012:table/users' },
      patch: { path: '/DeletionProtectionEnabled', value: true },
    },
    {
      type: 'AWS::Logs::LogGroup',
      desired: { LogGroupName: '/app/web' },
      identifier: '/app/web',
      // CloudFormation's documented form for a log group's Arn ends in `:*`, as the Logs API answers it.
      attributes: { Arn: 'arn:aws:logs:us-east-1:123456789012:log-group:/app/web:*' },
      patch: { path: '/RetentionInDays', value: 7 },
    },
  ];

  it.each(cases)('$type', async ({ type, desired, identifier: shape, listedAs, attributes, patch }) => {
    const identifier = shape.replace('{sandbox}', sandbox.url);
    const created = await create(type, desired);
    expect(created.event).toMatchObject({
      OperationStatus: 'SUCCESS',
      Operation: 'CREATE',
      Identifier: identifier,
    });
    const model = await get(type, identifier);
    expect(model).toMatchObject({ ...desired, ...attributes });

    const updated = await cc.send(
      new UpdateResourceCommand({
        TypeName: type,
        Identifier: identifier,
        PatchDocument: JSON.stringify([{ op: 'add', ...patch }]),
      }),
    );
    expect((await settle(cc, updated.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    const after = await get(type, identifier);
    expect(after[patch.path.slice(1)]).toEqual(patch.value);
    expect(after).toMatchObject(attributes);

    const listed = await cc.send(new ListResourcesCommand({ TypeName: type }));
    expect(listed.ResourceDescriptions?.map((d) => d.Identifier)).toEqual([identifier]);
    const inventory = await admin(sandbox, 'GET', 'inventory');
    // A type a service module emulates is held (and listed) by that module, not the generic store.
    const holders = Object.values(inventory.json as Record<string, Record<string, Array<{ id: string }>>>);
    const held = holders.flatMap((byType) => (byType[type] ?? []).map((entry) => entry.id));
    expect(held).toEqual([listedAs ?? identifier]);

    const deleted = await cc.send(new DeleteResourceCommand({ TypeName: type, Identifier: identifier }));
    expect((await settle(cc, deleted.ProgressEvent!)).event).toMatchObject({
      OperationStatus: 'SUCCESS',
      Operation: 'DELETE',
    });
    const gone = await failure(cc.send(new GetResourceCommand({ TypeName: type, Identifier: identifier })));
    expect(gone.name).toBe('ResourceNotFoundException');
  });

  it('generates a CloudFormation-style name when the desired state names none', async () => {
    const { event } = await create('AWS::SQS::Queue', {});
    expect(event.Identifier).toMatch(/\/123456789012\/Queue-[A-Z0-9]{12}$/);
    expect(event.Identifier!.startsWith(`${sandbox.url}/`)).toBe(true);
    const model = await get('AWS::SQS::Queue', event.Identifier!);
    expect(model.Arn).toBe(`arn:aws:sqs:us-east-1:123456789012:${String(model.QueueName)}`);
  });

  it("gives a global table its region's table ARN and stream ARN, as DynamoDB names them", async () => {
    const { event } = await create('AWS::DynamoDB::GlobalTable', {
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      Replicas: [{ Region: 'us-east-1' }],
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
    const model = await get('AWS::DynamoDB::GlobalTable', event.Identifier!);
    const tableArn = `arn:aws:dynamodb:us-east-1:123456789012:table/${event.Identifier!}`;
    expect(model.Arn).toBe(tableArn);
    expect(String(model.StreamArn)).toMatch(new RegExp(`^${tableArn}/stream/\\d{4}-`));
  });

  it("gives a load balancer ELB's DNS name shape, which URLs and alias records are built from", async () => {
    const { event } = await create('AWS::ElasticLoadBalancingV2::LoadBalancer', {
      Name: 'web',
      Type: 'application',
    });
    const model = await get('AWS::ElasticLoadBalancingV2::LoadBalancer', event.Identifier!);
    expect(model.DNSName).toMatch(/^web-\d{10}\.us-east-1\.elb\.amazonaws\.com$/);
  });

  it('gives an HTTP API the execute-api endpoint its id names, as API Gateway does', async () => {
    const { event } = await create('AWS::ApiGatewayV2::Api', { Name: 'http', ProtocolType: 'HTTP' });
    const model = await get('AWS::ApiGatewayV2::Api', event.Identifier!);
    expect(model.ApiId).toMatch(/^[a-z0-9]{10}$/);
    expect(event.Identifier).toBe(model.ApiId);
    expect(model.ApiEndpoint).toBe(`https://${String(model.ApiId)}.execute-api.us-east-1.amazonaws.com`);
  });

  it("gives a user pool Cognito's id shape, and builds its ARN, provider name and URL from it", async () => {
    const { event } = await create('AWS::Cognito::UserPool', {});
    const model = await get('AWS::Cognito::UserPool', event.Identifier!);
    expect(model.UserPoolId).toMatch(/^us-east-1_[A-Za-z0-9]{9}$/);
    expect(event.Identifier).toBe(model.UserPoolId);
    expect(model.Arn).toBe(`arn:aws:cognito-idp:us-east-1:123456789012:userpool/${String(model.UserPoolId)}`);
    expect(model.ProviderURL).toBe(`https://cognito-idp.us-east-1.amazonaws.com/${String(model.UserPoolId)}`);
    const client = await create('AWS::Cognito::UserPoolClient', { UserPoolId: model.UserPoolId });
    expect(client.event.Identifier).toMatch(new RegExp(`^${String(model.UserPoolId)}\\|[a-z0-9]{26}$`));
  });

  it('gives a certificate an ACM ARN ending in a UUID', async () => {
    const { event } = await create('AWS::CertificateManager::Certificate', { DomainName: 'api.example.com' });
    expect(event.Identifier).toMatch(
      /^arn:aws:acm:us-east-1:123456789012:certificate\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it("gives a GraphQL API AppSync's ids and endpoints, and its parts ARNs below the API's", async () => {
    const { event } = await create('AWS::AppSync::GraphQLApi', {
      Name: 'notes',
      AuthenticationType: 'API_KEY',
    });
    const api = await get('AWS::AppSync::GraphQLApi', event.Identifier!);
    expect(api.ApiId).toMatch(/^[a-z0-9]{26}$/);
    expect(api.Arn).toBe(`arn:aws:appsync:us-east-1:123456789012:apis/${String(api.ApiId)}`);
    const host = String(api.GraphQLDns).split('.')[0]!;
    expect(host).toMatch(/^[a-z0-9]{26}$/);
    expect(api.GraphQLUrl).toBe(`https://${host}.appsync-api.us-east-1.amazonaws.com/graphql`);
    expect(api.RealtimeUrl).toBe(`wss://${host}.appsync-realtime-api.us-east-1.amazonaws.com/graphql`);
    const source = await create('AWS::AppSync::DataSource', {
      ApiId: api.ApiId,
      Name: 'Notes',
      Type: 'NONE',
    });
    expect(source.event.Identifier).toBe(`${String(api.Arn)}/datasources/Notes`);
  });

  it('joins a composite primary identifier with |', async () => {
    // An inline policy lives on its role, as in IAM: the role comes first.
    await create('AWS::IAM::Role', {
      RoleName: 'app-role',
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      },
    });
    const { event } = await create('AWS::IAM::RolePolicy', {
      RoleName: 'app-role',
      PolicyName: 'inline',
      PolicyDocument: { Version: '2012-10-17', Statement: [] },
    });
    expect(event.Identifier).toBe('inline|app-role');
  });
});

describe('Cloud Control: handler errors and API errors', () => {
  it('fails a named duplicate with AlreadyExists', async () => {
    await create('AWS::Logs::LogGroup', { LogGroupName: 'dup' });
    const { event } = await create('AWS::Logs::LogGroup', { LogGroupName: 'dup' });
    expect(event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'AlreadyExists' });
    expect(event.StatusMessage).toContain("identifier 'dup' already exists");
  });

  it('answers UpdateResource with UnsupportedActionException for a type with no updatable property', async () => {
    // AWS::Athena::NamedQuery: every property is create-only, so its schema has no update handler.
    const created = await create('AWS::Athena::NamedQuery', { Database: 'db', QueryString: 'SELECT 1' });
    const identifier = created.event.Identifier!;
    const refused = await failure(
      cc.send(
        new UpdateResourceCommand({
          TypeName: 'AWS::Athena::NamedQuery',
          Identifier: identifier,
          PatchDocument: JSON.stringify([{ op: 'replace', path: '/QueryString', value: 'SELECT 2' }]),
        }),
      ),
    );
    expect(refused.name).toBe('UnsupportedActionException');
    expect(refused.status).toBe(400);
    expect(refused.error.message).toBe(
      'Resource type AWS::Athena::NamedQuery does not support UPDATE action',
    );
    expect((await get('AWS::Athena::NamedQuery', identifier)).QueryString).toBe('SELECT 1');
  });

  it('fails update and delete of a missing resource with NotFound', async () => {
    const update = await cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::SNS::Topic',
        Identifier: 'arn:aws:sns:us-east-1:123456789012:nope',
        PatchDocument: '[]',
      }),
    );
    expect((await settle(cc, update.ProgressEvent!)).event).toMatchObject({
      OperationStatus: 'FAILED',
      ErrorCode: 'NotFound',
    });
    const remove = await cc.send(
      new DeleteResourceCommand({ TypeName: 'AWS::SNS::Topic', Identifier: 'nope' }),
    );
    expect((await settle(cc, remove.ProgressEvent!)).event.ErrorCode).toBe('NotFound');
  });

  it('refuses a change to a create-only property as NotUpdatable', async () => {
    await create('AWS::Logs::LogGroup', { LogGroupName: 'fixed' });
    const update = await cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::Logs::LogGroup',
        Identifier: 'fixed',
        PatchDocument: JSON.stringify([{ op: 'replace', path: '/LogGroupName', value: 'moved' }]),
      }),
    );
    const { event } = await settle(cc, update.ProgressEvent!);
    expect(event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'NotUpdatable' });
  });

  it('rejects an unknown property and a missing required one as InvalidRequest', async () => {
    expect((await create('AWS::SQS::Queue', { Colour: 'blue' })).event).toMatchObject({
      ErrorCode: 'InvalidRequest',
      StatusMessage: 'Model validation failed (#: extraneous key [Colour] is not permitted)',
    });
    expect((await create('AWS::IAM::Role', {})).event.StatusMessage).toContain(
      'required key [AssumeRolePolicyDocument]',
    );
  });

  it('answers API errors in the JSON 1.0 shape', async () => {
    const unknownType = await failure(
      cc.send(new CreateResourceCommand({ TypeName: 'AWS::Nope::Thing', DesiredState: '{}' })),
    );
    expect(unknownType).toMatchObject({ name: 'TypeNotFoundException', status: 400 });
    const badPatch = await failure(
      cc.send(
        new UpdateResourceCommand({
          TypeName: 'AWS::SQS::Queue',
          Identifier: 'x',
          PatchDocument: '{"op":1}',
        }),
      ),
    );
    expect(badPatch.name).toBe('InvalidRequestException');
    const badToken = await failure(cc.send(new GetResourceRequestStatusCommand({ RequestToken: 'missing' })));
    expect(badToken.name).toBe('RequestTokenNotFoundException');

    const raw = await fetch(sandbox.url, {
      method: 'POST',
      headers: {
        'x-amz-target': 'CloudApiService.GetResource',
        'content-type': 'application/x-amz-json-1.0',
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKIA/20240101/us-east-1/cloudcontrolapi/aws4_request, SignedHeaders=host, Signature=x',
      },
      body: JSON.stringify({ TypeName: 'AWS::SQS::Queue', Identifier: 'none' }),
    });
    expect(raw.status).toBe(400);
    expect(raw.headers.get('x-amzn-errortype')).toBe('ResourceNotFoundException');
    expect(await raw.json()).toEqual({
      __type: 'ResourceNotFoundException',
      message: "Resource of type 'AWS::SQS::Queue' with identifier 'none' was not found.",
    });
  });
});

describe('Cloud Control: request tokens, progress and idempotency', () => {
  it('moves PENDING → IN_PROGRESS → SUCCESS over the latency model delay', async () => {
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::SNS::Topic': { create: 300 } } });
    const started = Date.now();
    const { event, statuses } = await create('AWS::SNS::Topic', { TopicName: 'slow' });
    expect(statuses).toEqual(['PENDING', 'IN_PROGRESS', 'SUCCESS']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(typeof event.ResourceModel).toBe('string');
  });

  it("adds Cloud Control's handler time to the type's, and a type's fallback time to one not listed", async () => {
    await admin(sandbox, 'PUT', 'latency', {
      types: {},
      cloudControl: { create: 300 },
      fallback: { create: 200 },
    });
    const started = Date.now();
    await create('AWS::SNS::Topic', { TopicName: 'overhead' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(490);
    await admin(sandbox, 'PUT', 'latency', {});
  });

  it('answers a repeated ClientToken with the first request, and refuses it for another request', async () => {
    const desired = JSON.stringify({ TopicName: 'once' });
    const first = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::SNS::Topic',
        DesiredState: desired,
        ClientToken: 'token-1',
      }),
    );
    await settle(cc, first.ProgressEvent!);
    const again = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::SNS::Topic',
        DesiredState: desired,
        ClientToken: 'token-1',
      }),
    );
    expect(again.ProgressEvent).toMatchObject({
      RequestToken: first.ProgressEvent!.RequestToken,
      OperationStatus: 'SUCCESS',
    });
    const conflict = await failure(
      cc.send(
        new CreateResourceCommand({
          TypeName: 'AWS::SNS::Topic',
          DesiredState: '{}',
          ClientToken: 'token-1',
        }),
      ),
    );
    expect(conflict.name).toBe('ClientTokenConflictException');
  });

  it('cancels an in-flight request, and refuses to cancel a finished one', async () => {
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::SQS::Queue': { create: 5000 } } });
    const accepted = await cc.send(
      new CreateResourceCommand({ TypeName: 'AWS::SQS::Queue', DesiredState: '{"QueueName":"never"}' }),
    );
    const token = accepted.ProgressEvent!.RequestToken!;
    const cancelled = await cc.send(new CancelResourceRequestCommand({ RequestToken: token }));
    expect(cancelled.ProgressEvent?.OperationStatus).toBe('CANCEL_IN_PROGRESS');
    const status = await cc.send(new GetResourceRequestStatusCommand({ RequestToken: token }));
    expect(status.ProgressEvent?.OperationStatus).toBe('CANCEL_COMPLETE');
    const again = await failure(cc.send(new CancelResourceRequestCommand({ RequestToken: token })));
    expect(again.name).toBe('ConcurrentModificationException');
    await expect(
      get('AWS::SQS::Queue', 'https://sqs.us-east-1.amazonaws.com/123456789012/never'),
    ).rejects.toThrow();
  });

  it('refuses a second operation on a resource with one in flight', async () => {
    await create('AWS::Logs::LogGroup', { LogGroupName: 'busy' });
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::Logs::LogGroup': { update: 5000 } } });
    const patch = JSON.stringify([{ op: 'add', path: '/RetentionInDays', value: 1 }]);
    await cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::Logs::LogGroup',
        Identifier: 'busy',
        PatchDocument: patch,
      }),
    );
    const second = await failure(
      cc.send(new DeleteResourceCommand({ TypeName: 'AWS::Logs::LogGroup', Identifier: 'busy' })),
    );
    expect(second.name).toBe('ResourceConflictException');
  });

  it('lists requests, filtered by operation and status', async () => {
    const output = await cc.send(
      new ListResourceRequestsCommand({
        ResourceRequestStatusFilter: { Operations: ['CREATE'], OperationStatuses: ['FAILED'] },
      }),
    );
    const events = output.ResourceRequestStatusSummaries ?? [];
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.Operation === 'CREATE' && e.OperationStatus === 'FAILED')).toBe(true);
  });
});

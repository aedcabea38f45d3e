import {
  APIGatewayClient,
  GetRestApiCommand,
  GetStageCommand,
  TagResourceCommand,
} from '@aws-sdk/client-api-gateway';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { driftOf } from '../../src/engine/drift/drift-rules.js';
import { DeploymentProvider } from '../../src/providers/apigateway/deployment.js';
import { MethodProvider } from '../../src/providers/apigateway/method.js';
import { ResourceProvider } from '../../src/providers/apigateway/resource.js';
import { RestApiProvider } from '../../src/providers/apigateway/rest-api.js';
import { StageProvider } from '../../src/providers/apigateway/stage.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { TOKEN_TAG } from '../../src/providers/physical-names.js';
import type { JsonObject, ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { registerSdkProviders } from '../../src/providers/sdk-providers.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const REGION = 'us-east-1';
const API = 'AWS::ApiGateway::RestApi';
const RESOURCE = 'AWS::ApiGateway::Resource';
const METHOD = 'AWS::ApiGateway::Method';
const DEPLOYMENT = 'AWS::ApiGateway::Deployment';
const STAGE = 'AWS::ApiGateway::Stage';
const apis = new RestApiProvider();
const resources = new ResourceProvider();
const methods = new MethodProvider();
const deployments = new DeploymentProvider();
const stages = new StageProvider();
const cc = new CloudControlProvider();
let context: ProviderContext;
let client: APIGatewayClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: REGION });
  context = { clients, accountId: '000000000000', region: REGION, stackName: 'ApiStack' };
  client = await clients.client(APIGatewayClient, REGION);
});

const mock = (body: string): JsonObject => ({
  Type: 'MOCK',
  RequestTemplates: { 'application/json': '{"statusCode": 200}' },
  IntegrationResponses: [{ StatusCode: '200', ResponseTemplates: { 'application/json': body } }],
});

async function call(apiId: string, stage: string, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${sandbox.current.url}/restapis/${apiId}/${stage}/_user_request_${path}`);
  return { status: response.status, body: await response.text() };
}

describe('API Gateway REST API SDK providers', () => {
  it('creates an API with its token tag, reads it back without drift, updates it in place keeping a tag added out of band, and deletes it', async () => {
    const properties = {
      Name: 'orders',
      Description: 'v1',
      EndpointConfiguration: { Types: ['REGIONAL'] },
      BinaryMediaTypes: ['image/png'],
      Policy: { Version: '2012-10-17', Statement: [] },
      Tags: [{ Key: 'team', Value: 'a' }],
    };
    const created = await apis.create(
      { logicalId: 'Api', type: API, properties, idempotencyToken: 'tok-api' },
      context,
    );
    const restApiId = created.physicalId;
    const live = await client.send(new GetRestApiCommand({ restApiId }));
    expect(created.attributes).toEqual({ RestApiId: restApiId, RootResourceId: live.rootResourceId });
    expect(live.tags).toEqual({ team: 'a', [TOKEN_TAG]: 'tok-api' });
    const request = { logicalId: 'Api', type: API, physicalId: restApiId };
    expect(driftOf(properties, (await apis.read({ ...request, properties }, context))!.properties)).toEqual(
      [],
    );

    await client.send(
      new TagResourceCommand({
        resourceArn: `arn:aws:apigateway:${REGION}::/restapis/${restApiId}`,
        tags: { oob: '1' },
      }),
    );
    const next = {
      Name: 'orders-2',
      EndpointConfiguration: { Types: ['EDGE'] },
      BinaryMediaTypes: ['application/octet-stream'],
      MinimumCompressionSize: 100,
      Tags: [{ Key: 'env', Value: 'prod' }],
    };
    const updated = await apis.update(
      { ...request, properties: next, previousProperties: properties },
      context,
    );
    expect(updated).toMatchObject({
      physicalId: restApiId,
      attributes: { RootResourceId: live.rootResourceId },
    });
    const read = (await apis.read({ ...request, properties: next }, context))!.properties;
    // The tag added out of band is the only drift.
    expect(driftOf(next, read).map((drift) => drift.property)).toEqual(['Tags']);
    expect(read).not.toHaveProperty('Description');
    expect(read).not.toHaveProperty('Policy');
    expect(read.Tags).toEqual([
      { Key: 'oob', Value: '1' },
      { Key: 'env', Value: 'prod' },
    ]);

    await apis.delete({ ...request, properties: next }, context);
    expect(await apis.read({ ...request, properties: next }, context)).toBeUndefined();
    await apis.delete({ ...request, properties: next }, context);
  });

  it('locates the API a create made by its token tag', async () => {
    const request = {
      logicalId: 'Located',
      type: API,
      properties: { Name: 'located' },
      idempotencyToken: 'tok-located',
    };
    expect(await apis.locate(request, context)).toBe('none');
    const created = await apis.create(request, context);
    expect(await apis.locate(request, context)).toEqual({ physicalId: created.physicalId });
    expect(await apis.locate({ ...request, idempotencyToken: undefined }, context)).toBe('unknown');
  });

  it('builds resources, a method with its integration and responses, a deployment and a stage execute-api serves; a changed method reaches callers with a new deployment', async () => {
    const api = await apis.create({ logicalId: 'Api', type: API, properties: { Name: 'served' } }, context);
    const RestApiId = api.physicalId;
    const root = String(api.attributes.RootResourceId);
    const resourceProps = { RestApiId, ParentId: root, PathPart: 'hello' };
    const resource = await resources.create(
      { logicalId: 'Hello', type: RESOURCE, properties: resourceProps },
      context,
    );
    expect(resource.attributes).toEqual({ ResourceId: resource.physicalId });
    const resourceRequest = {
      logicalId: 'Hello',
      type: RESOURCE,
      physicalId: resource.physicalId,
      properties: resourceProps,
    };
    expect((await resources.read(resourceRequest, context))?.properties).toEqual(resourceProps);
    // A create whose answer was lost: the resource at that path under its parent is the one it made.
    expect(await resources.locate({ ...resourceRequest, properties: resourceProps }, context)).toEqual({
      physicalId: resource.physicalId,
    });
    expect(
      await resources.locate(
        { ...resourceRequest, properties: { ...resourceProps, PathPart: 'x' } },
        context,
      ),
    ).toBe('none');

    const methodProps = {
      RestApiId,
      ResourceId: resource.physicalId,
      HttpMethod: 'GET',
      AuthorizationType: 'NONE',
      Integration: mock('{"version": 1}'),
      MethodResponses: [{ StatusCode: '200' }],
    };
    const method = await methods.create({ logicalId: 'Get', type: METHOD, properties: methodProps }, context);
    expect(method.physicalId).toBe(`${RestApiId}|${resource.physicalId}|GET`);
    const methodRequest = { logicalId: 'Get', type: METHOD, physicalId: method.physicalId };
    expect(
      driftOf(
        methodProps,
        (await methods.read({ ...methodRequest, properties: methodProps }, context))!.properties,
      ),
    ).toEqual([]);
    expect(await methods.locate({ ...methodRequest, properties: methodProps }, context)).toEqual({
      physicalId: method.physicalId,
    });

    const first = await deployments.create(
      { logicalId: 'Deployment1', type: DEPLOYMENT, properties: { RestApiId, Description: 'one' } },
      context,
    );
    expect(first.attributes).toEqual({ DeploymentId: first.physicalId });
    const stageProps = {
      RestApiId,
      StageName: 'live',
      DeploymentId: first.physicalId,
      Variables: { a: '1' },
    };
    const stage = await stages.create(
      { logicalId: 'Stage', type: STAGE, properties: stageProps, idempotencyToken: 'tok-stage' },
      context,
    );
    expect(stage.physicalId).toBe('live');
    expect(await call(RestApiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });
    const stageRequest = { logicalId: 'Stage', type: STAGE, physicalId: 'live' };
    expect(
      driftOf(
        stageProps,
        (await stages.read({ ...stageRequest, properties: stageProps }, context))!.properties,
      ),
    ).toEqual([]);
    // Its create's answer lost, the same create finds the stage its token tagged; another create does not.
    expect(
      (
        await stages.create(
          { logicalId: 'Stage', type: STAGE, properties: stageProps, idempotencyToken: 'tok-stage' },
          context,
        )
      ).physicalId,
    ).toBe('live');
    expect(
      await stages.locate(
        { logicalId: 'Stage', type: STAGE, properties: stageProps, idempotencyToken: 'tok-stage' },
        context,
      ),
    ).toEqual({
      physicalId: 'live',
    });
    await expect(
      stages.create(
        { logicalId: 'Stage', type: STAGE, properties: stageProps, idempotencyToken: 'other' },
        context,
      ),
    ).rejects.toMatchObject({ name: 'ConflictException' });

    const changed = { ...methodProps, Integration: mock('{"version": 2}') };
    await methods.update({ ...methodRequest, properties: changed, previousProperties: methodProps }, context);
    expect(
      driftOf(changed, (await methods.read({ ...methodRequest, properties: changed }, context))!.properties),
    ).toEqual([]);
    expect(await call(RestApiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });
    const second = await deployments.create(
      { logicalId: 'Deployment2', type: DEPLOYMENT, properties: { RestApiId, Description: 'two' } },
      context,
    );
    // A deployment carries no token: one made since the create was journaled may be this create's.
    const deploymentCreate = { logicalId: 'Deployment2', type: DEPLOYMENT, properties: { RestApiId } };
    const journaled = (offset: number) => new Date(Date.now() + offset).toISOString();
    expect(await deployments.locate({ ...deploymentCreate, journaledAt: journaled(-60_000) }, context)).toBe(
      'unknown',
    );
    expect(await deployments.locate({ ...deploymentCreate, journaledAt: journaled(60_000) }, context)).toBe(
      'none',
    );
    expect(
      await deployments.locate(
        { ...deploymentCreate, properties: { RestApiId: 'gone123456' }, journaledAt: journaled(-60_000) },
        context,
      ),
    ).toBe('none');
    const movedProps = {
      ...stageProps,
      DeploymentId: second.physicalId,
      Variables: { b: '2' },
      Description: 'moved',
    };
    await stages.update({ ...stageRequest, properties: movedProps, previousProperties: stageProps }, context);
    expect(await client.send(new GetStageCommand({ restApiId: RestApiId, stageName: 'live' }))).toMatchObject(
      {
        deploymentId: second.physicalId,
        variables: { b: '2' },
        description: 'moved',
      },
    );
    expect(await call(RestApiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 2}' });

    // The old deployment goes once nothing points at it; then the rest, each delete again a no-op.
    const firstRequest = {
      logicalId: 'Deployment1',
      type: DEPLOYMENT,
      physicalId: first.physicalId,
      properties: { RestApiId },
    };
    await deployments.update(
      {
        ...firstRequest,
        properties: { RestApiId, Description: 'uno' },
        previousProperties: { RestApiId, Description: 'one' },
      },
      context,
    );
    expect((await deployments.read(firstRequest, context))?.properties).toEqual({
      RestApiId,
      Description: 'uno',
    });
    await deployments.delete(firstRequest, context);
    expect(await deployments.read(firstRequest, context)).toBeUndefined();
    await deployments.delete(firstRequest, context);
    for (const [provider, request] of [
      [stages, { ...stageRequest, properties: movedProps }],
      [
        deployments,
        {
          logicalId: 'Deployment2',
          type: DEPLOYMENT,
          physicalId: second.physicalId,
          properties: { RestApiId },
        },
      ],
      [methods, { ...methodRequest, properties: changed }],
      [resources, resourceRequest],
    ] as const) {
      await provider.delete(request, context);
      expect(await provider.read(request, context)).toBeUndefined();
      await provider.delete(request, context);
    }
  });

  it('puts a status code CDK lists twice in MethodResponses as one response holding both, and takes a path part AWS takes', async () => {
    const api = await apis.create({ logicalId: 'Twice', type: API, properties: { Name: 'twice' } }, context);
    const RestApiId = api.physicalId;
    const resource = await resources.create(
      {
        logicalId: 'Odd',
        type: RESOURCE,
        properties: {
          RestApiId,
          ParentId: String(api.attributes.RootResourceId),
          PathPart: '$appliances:all',
        },
      },
      context,
    );
    const properties = {
      RestApiId,
      ResourceId: resource.physicalId,
      HttpMethod: 'POST',
      AuthorizationType: 'NONE',
      MethodResponses: [
        {
          StatusCode: '200',
          ResponseParameters: { 'method.response.header.Access-Control-Allow-Origin': true },
        },
        { StatusCode: '200', ResponseModels: { 'application/json': 'Empty' } },
      ],
    };
    const method = await methods.create({ logicalId: 'Post', type: METHOD, properties }, context);
    const read = await methods.read(
      { logicalId: 'Post', type: METHOD, physicalId: method.physicalId, properties },
      context,
    );
    expect(read?.properties.MethodResponses).toEqual([
      {
        StatusCode: '200',
        ResponseParameters: { 'method.response.header.Access-Control-Allow-Origin': true },
        ResponseModels: { 'application/json': 'Empty' },
      },
    ]);
  });

  it('reads and updates an API Cloud Control made, in the same store', async () => {
    const made = await cc.create({ logicalId: 'CcApi', type: API, properties: { Name: 'by-cc' } }, context);
    const request = { logicalId: 'CcApi', type: API, physicalId: made.physicalId };
    expect((await apis.read({ ...request, properties: {} }, context))?.properties).toMatchObject({
      Name: 'by-cc',
    });
    await apis.update(
      { ...request, properties: { Name: 'by-sdk' }, previousProperties: { Name: 'by-cc' } },
      context,
    );
    const model = await cc.read({ ...request, properties: {} }, context);
    expect(model?.properties).toMatchObject({ Name: 'by-sdk' });
  });

  it('retries a throttled call (TooManyRequestsException) instead of failing it', async () => {
    const api = await apis.create(
      { logicalId: 'Throttled', type: API, properties: { Name: 'throttled' } },
      context,
    );
    const added = await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'apigateway',
        operation: 'GetRestApi',
        errorCode: 'TooManyRequestsException',
        httpStatus: 429,
        count: 3,
        every: true,
      }),
    });
    expect(added.status).toBe(201);
    const read = await apis.read(
      { logicalId: 'Throttled', type: API, physicalId: api.physicalId, properties: {} },
      context,
    );
    expect(read?.properties).toMatchObject({ Name: 'throttled' });
    await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
  });

  it('sends what CDK emits and leaves the rest to Cloud Control; replaces only where the schema says', async () => {
    expect(
      apis.uncoveredProperties(API, { Name: 'a', Body: {}, EndpointConfiguration: { Types: ['EDGE'] } }),
    ).toEqual(['Body']);
    expect(
      apis.uncoveredProperties(API, {
        Name: 'a',
        EndpointConfiguration: { Types: ['PRIVATE'], VpcEndpointIds: ['v'] },
      }),
    ).toEqual(['EndpointConfiguration']);
    expect(
      methods.uncoveredProperties(METHOD, {
        HttpMethod: 'GET',
        Integration: { Type: 'MOCK', TlsConfig: {} },
      }),
    ).toEqual(['Integration']);
    expect(stages.uncoveredProperties(STAGE, { RestApiId: 'a', StageName: 's', MethodSettings: [] })).toEqual(
      ['MethodSettings'],
    );
    expect(stages.uncoveredProperties(STAGE, { RestApiId: 'a', DeploymentId: 'd' })).toEqual(['StageName']);
    expect(deployments.uncoveredProperties(DEPLOYMENT, { RestApiId: 'a', StageName: 's' })).toEqual([
      'StageName',
    ]);
    expect(apis.canUpdateInPlace(API, ['Name', 'EndpointConfiguration', 'Policy'])).toBe(true);
    expect(resources.canUpdateInPlace(RESOURCE, ['PathPart'])).toBe(false);
    expect(methods.canUpdateInPlace(METHOD, ['Integration', 'AuthorizationType'])).toBe(true);
    expect(methods.canUpdateInPlace(METHOD, ['HttpMethod'])).toBe(false);
    expect(deployments.canUpdateInPlace(DEPLOYMENT, ['Description'])).toBe(true);
    expect(deployments.canUpdateInPlace(DEPLOYMENT, ['RestApiId'])).toBe(false);
    expect(stages.canUpdateInPlace(STAGE, ['DeploymentId', 'Variables'])).toBe(true);
    expect(stages.canUpdateInPlace(STAGE, ['StageName'])).toBe(false);
  });

  it('is registered for the five types, and a SpecRestApi body routes through Cloud Control', async () => {
    const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
    await registry.load([API, RESOURCE, METHOD, DEPLOYMENT, STAGE]);
    expect(registry.route({ type: API, properties: { Name: 'a' } }).provider).toBeInstanceOf(RestApiProvider);
    expect(
      registry.route({ type: STAGE, properties: { RestApiId: 'a', StageName: 's' } }).provider,
    ).toBeInstanceOf(StageProvider);
    expect(registry.route({ type: API, properties: { Name: 'a', BodyS3Location: {} } })).toMatchObject({
      provisionedBy: 'cc-api',
      reason: 'uncovered-property',
      properties: ['BodyS3Location'],
    });
  });
});

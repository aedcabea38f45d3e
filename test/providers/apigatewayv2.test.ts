import { GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import {
  ApiGatewayV2Client,
  GetApiCommand,
  GetRouteCommand,
  GetStageCommand,
  GetTagsCommand,
} from '@aws-sdk/client-apigatewayv2';
import { AddPermissionCommand, CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { driftOf } from '../../src/engine/drift/drift-rules.js';
import { HttpApiProvider } from '../../src/providers/apigatewayv2/api.js';
import { HttpApiPartProvider } from '../../src/providers/apigatewayv2/part-provider.js';
import { INTEGRATION, ROUTE, STAGE } from '../../src/providers/apigatewayv2/parts.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { TOKEN_TAG } from '../../src/providers/physical-names.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { registerSdkProviders } from '../../src/providers/sdk-providers.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
const apis = new HttpApiProvider();
const routes = new HttpApiPartProvider(ROUTE);
const integrations = new HttpApiPartProvider(INTEGRATION);
const stages = new HttpApiPartProvider(STAGE);
const cc = new CloudControlProvider();
let context: ProviderContext;
let v2: ApiGatewayV2Client;
const functionArn = `arn:aws:lambda:${REGION}:${ACCOUNT}:function:echo`;

beforeAll(async () => {
  const clients = new AwsClients({ region: REGION });
  context = { clients, accountId: ACCOUNT, region: REGION, stackName: 'HttpStack' };
  v2 = await clients.client(ApiGatewayV2Client, REGION);
  const lambda = await clients.client(LambdaClient, REGION);
  await lambda.send(
    new CreateFunctionCommand({
      FunctionName: 'echo',
      Runtime: 'nodejs20.x',
      Role: `arn:aws:iam::${ACCOUNT}:role/echo`,
      Handler: 'index.handler',
      Code: {
        ZipFile: new Uint8Array(
          await zipped('exports.handler = async (e) => ({ statusCode: 200, body: "echo " + e.rawPath });'),
        ),
      },
    }),
  );
  await lambda.send(
    new AddPermissionCommand({
      FunctionName: 'echo',
      StatementId: 'api',
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
    }),
  );
}, 60_000);

async function zipped(source: string): Promise<Uint8Array> {
  const { zipSync, strToU8 } = await import('fflate');
  return zipSync({ 'index.js': strToU8(source) });
}

const invoke = async (apiId: string, path: string) => {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${sandbox.current.url}/restapis/${apiId}/$default/_user_request_${path}`);
    const body = await response.text();
    // The function may still be Pending on its first call.
    if (response.status !== 500 || attempt === 20) return { status: response.status, body };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
const errorOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error as Error & { name: string },
  );

describe('API Gateway v2 providers', () => {
  it('make an HTTP API with a Lambda route on an auto-deployed stage that answers, update it in place, read it without drift, delete it', async () => {
    const apiProperties = { Name: 'echo-api', ProtocolType: 'HTTP', Tags: { team: 'web' } };
    const api = await apis.create(
      {
        logicalId: 'Api',
        type: apis.description.type,
        properties: apiProperties,
        idempotencyToken: 'tok-api',
      },
      context,
    );
    const apiId = api.physicalId;
    expect(apiId).toMatch(/^[a-z0-9]{10}$/);
    expect(api.attributes).toEqual({
      ApiId: apiId,
      ApiEndpoint: `https://${apiId}.execute-api.${REGION}.amazonaws.com`,
      ExecuteApiArn: `arn:aws:execute-api:${REGION}:${ACCOUNT}:${apiId}`,
    });
    expect(
      (await v2.send(new GetTagsCommand({ ResourceArn: `arn:aws:apigateway:${REGION}::/apis/${apiId}` })))
        .Tags,
    ).toEqual({
      team: 'web',
      [TOKEN_TAG]: 'tok-api',
    });
    const integrationProperties = {
      ApiId: apiId,
      IntegrationType: 'AWS_PROXY',
      IntegrationUri: functionArn,
      PayloadFormatVersion: '2.0',
    };
    const integration = await integrations.create(
      { logicalId: 'Integration', type: INTEGRATION.type, properties: integrationProperties },
      context,
    );
    expect(integration.attributes).toEqual({ IntegrationId: integration.physicalId });
    const routeProperties = {
      ApiId: apiId,
      RouteKey: 'GET /echo',
      AuthorizationType: 'NONE',
      Target: `integrations/${integration.physicalId}`,
    };
    const route = await routes.create(
      { logicalId: 'Route', type: ROUTE.type, properties: routeProperties },
      context,
    );
    expect(route.physicalId).toMatch(/^[a-z0-9]{7}$/);
    const stageProperties = { ApiId: apiId, StageName: '$default', AutoDeploy: true };
    const stage = await stages.create(
      { logicalId: 'Stage', type: STAGE.type, properties: stageProperties },
      context,
    );
    expect(stage.physicalId).toBe('$default');

    expect(await invoke(apiId, '/echo')).toEqual({ status: 200, body: 'echo /echo' });

    const read = async (
      provider: HttpApiPartProvider | HttpApiProvider,
      physicalId: string,
      properties: Record<string, unknown>,
    ) =>
      (await provider.read(
        { logicalId: 'X', type: provider.description.type, physicalId, properties },
        context,
      ))!.properties;
    expect(driftOf(apiProperties, await read(apis, apiId, apiProperties))).toEqual([]);
    expect(
      driftOf(integrationProperties, await read(integrations, integration.physicalId, integrationProperties)),
    ).toEqual([]);
    expect(driftOf(routeProperties, await read(routes, route.physicalId, routeProperties))).toEqual([]);
    expect(driftOf(stageProperties, await read(stages, stage.physicalId, stageProperties))).toEqual([]);

    // Updates in place: the route's key, the stage's variables and tags, the API's description and tags.
    expect(routes.canUpdateInPlace(ROUTE.type, ['RouteKey', 'Target'])).toBe(true);
    const movedRoute = { ...routeProperties, RouteKey: 'GET /moved' };
    await routes.update(
      {
        logicalId: 'Route',
        type: ROUTE.type,
        physicalId: route.physicalId,
        previousProperties: routeProperties,
        properties: movedRoute,
      },
      context,
    );
    expect((await v2.send(new GetRouteCommand({ ApiId: apiId, RouteId: route.physicalId }))).RouteKey).toBe(
      'GET /moved',
    );
    expect((await invoke(apiId, '/moved')).status).toBe(200);
    const nextStage = { ...stageProperties, StageVariables: { mode: 'x' }, Tags: { tier: '1' } };
    await stages.update(
      {
        logicalId: 'Stage',
        type: STAGE.type,
        physicalId: '$default',
        previousProperties: stageProperties,
        properties: nextStage,
      },
      context,
    );
    expect(await v2.send(new GetStageCommand({ ApiId: apiId, StageName: '$default' }))).toMatchObject({
      StageVariables: { mode: 'x' },
      Tags: { tier: '1' },
    });
    const nextApi = { ...apiProperties, Description: 'echoes', Tags: { team: 'api' } };
    const updated = await apis.update(
      {
        logicalId: 'Api',
        type: apis.description.type,
        physicalId: apiId,
        previousProperties: apiProperties,
        properties: nextApi,
      },
      context,
    );
    expect(updated.attributes).toEqual(api.attributes);
    expect(await v2.send(new GetApiCommand({ ApiId: apiId }))).toMatchObject({
      Description: 'echoes',
      Tags: { team: 'api', [TOKEN_TAG]: 'tok-api' },
    });
    expect(driftOf(nextApi, await read(apis, apiId, nextApi))).toEqual([]);
    const withCors = { ...nextApi, CorsConfiguration: { AllowOrigins: ['https://example.com'] } };
    await apis.update(
      {
        logicalId: 'Api',
        type: apis.description.type,
        physicalId: apiId,
        previousProperties: nextApi,
        properties: withCors,
      },
      context,
    );
    expect((await v2.send(new GetApiCommand({ ApiId: apiId }))).CorsConfiguration).toEqual({
      AllowOrigins: ['https://example.com'],
    });
    expect(driftOf(withCors, await read(apis, apiId, withCors))).toEqual([]);
    // Dropped CORS is deleted, a dropped description goes back to empty: neither is left as it was.
    await apis.update(
      {
        logicalId: 'Api',
        type: apis.description.type,
        physicalId: apiId,
        previousProperties: withCors,
        properties: apiProperties,
      },
      context,
    );
    const after = await v2.send(new GetApiCommand({ ApiId: apiId }));
    expect(after.Description).toBe('');
    expect(after.CorsConfiguration).toBeUndefined();

    // Deletes: the parts, then the API; each again once gone.
    const del = (
      provider: HttpApiPartProvider | HttpApiProvider,
      physicalId: string,
      properties: Record<string, unknown>,
    ) =>
      provider.delete({ logicalId: 'X', type: provider.description.type, physicalId, properties }, context);
    await del(stages, '$default', nextStage);
    await del(routes, route.physicalId, movedRoute);
    await del(integrations, integration.physicalId, integrationProperties);
    expect(await read(routes, route.physicalId, movedRoute).catch(() => 'threw')).toBe('threw');
    await del(apis, apiId, apiProperties);
    expect(
      await apis.read(
        { logicalId: 'Api', type: apis.description.type, physicalId: apiId, properties: apiProperties },
        context,
      ),
    ).toBeUndefined();
    await del(apis, apiId, apiProperties);
    await del(routes, route.physicalId, movedRoute);
    await del(stages, '$default', nextStage);
  }, 60_000);

  it('decides replacement by the schema and routes CDK-shaped resources to the SDK providers', async () => {
    expect(apis.canUpdateInPlace(apis.description.type, ['ProtocolType'])).toBe(false);
    expect(apis.canUpdateInPlace(apis.description.type, ['Name', 'CorsConfiguration'])).toBe(true);
    expect(routes.canUpdateInPlace(ROUTE.type, ['ApiId'])).toBe(false);
    expect(stages.canUpdateInPlace(STAGE.type, ['StageName'])).toBe(false);
    expect(stages.canUpdateInPlace(STAGE.type, ['AutoDeploy'])).toBe(true);
    expect(apis.uncoveredProperties(apis.description.type, { Name: 'a', Body: {} })).toEqual(['Body']);
    const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
    const cdkShaped = {
      [apis.description.type]: { Name: 'a', ProtocolType: 'HTTP' },
      [ROUTE.type]: { ApiId: 'a', RouteKey: 'GET /', AuthorizationType: 'NONE', Target: 'integrations/b' },
      [INTEGRATION.type]: {
        ApiId: 'a',
        IntegrationType: 'AWS_PROXY',
        IntegrationUri: functionArn,
        PayloadFormatVersion: '2.0',
      },
      [STAGE.type]: { ApiId: 'a', StageName: '$default', AutoDeploy: true },
    };
    await registry.load(Object.keys(cdkShaped));
    for (const [type, properties] of Object.entries(cdkShaped)) {
      expect(registry.route({ type, properties }).provider.kind).toBe('sdk');
    }
  });

  it('locates what a lost create made: an API by its token tag, a route by its key, a stage by its name', async () => {
    const type = apis.description.type;
    const properties = { Name: 'lost', ProtocolType: 'HTTP' };
    expect(
      await apis.locate({ logicalId: 'Lost', type, properties, idempotencyToken: 'tok-lost' }, context),
    ).toBe('none');
    const made = await apis.create(
      { logicalId: 'Lost', type, properties, idempotencyToken: 'tok-lost' },
      context,
    );
    expect(
      await apis.locate({ logicalId: 'Lost', type, properties, idempotencyToken: 'tok-lost' }, context),
    ).toEqual({
      physicalId: made.physicalId,
    });
    const routeProperties = { ApiId: made.physicalId, RouteKey: 'GET /lost' };
    const request = { logicalId: 'R', type: ROUTE.type, properties: routeProperties, idempotencyToken: 't' };
    expect(await routes.locate(request, context)).toBe('none');
    const route = await routes.create(request, context);
    expect(await routes.locate(request, context)).toEqual({ physicalId: route.physicalId });
    const stageRequest = {
      logicalId: 'S',
      type: STAGE.type,
      properties: { ApiId: made.physicalId, StageName: 'dev' },
      idempotencyToken: 't',
    };
    await stages.create(stageRequest, context);
    expect(await stages.locate(stageRequest, context)).toEqual({ physicalId: 'dev' });
    expect(
      await integrations.locate(
        { logicalId: 'I', type: INTEGRATION.type, properties: {}, idempotencyToken: 't' },
        context,
      ),
    ).toBe('unknown');
  });

  it("answers API Gateway's codes for bad input", async () => {
    const made = await apis.create(
      {
        logicalId: 'Rules',
        type: apis.description.type,
        properties: { Name: 'rules', ProtocolType: 'HTTP' },
      },
      context,
    );
    const bad = async (
      provider: HttpApiPartProvider | HttpApiProvider,
      properties: Record<string, unknown>,
    ) =>
      (
        await errorOf(
          provider.create({ logicalId: 'Bad', type: provider.description.type, properties }, context),
        )
      )?.name;
    expect(await bad(apis, { Name: 'x', ProtocolType: 'SOAP' })).toBe('BadRequestException');
    expect(await bad(routes, { ApiId: 'nosuchapi0', RouteKey: 'GET /' })).toBe('NotFoundException');
    expect(await bad(routes, { ApiId: made.physicalId, RouteKey: 'get' })).toBe('BadRequestException');
    expect(await bad(integrations, { ApiId: made.physicalId, IntegrationType: 'AWS_PROXY' })).toBe(
      'BadRequestException',
    );
    await routes.create(
      { logicalId: 'R', type: ROUTE.type, properties: { ApiId: made.physicalId, RouteKey: 'GET /one' } },
      context,
    );
    expect(await bad(routes, { ApiId: made.physicalId, RouteKey: 'GET /one' })).toBe('ConflictException');
  });

  it('reads and updates an HTTP API Cloud Control made (one store), and Cloud Control sees the update', async () => {
    const type = apis.description.type;
    const properties = { Name: 'from-cc', ProtocolType: 'HTTP' };
    const made = await cc.create({ logicalId: 'Cc', type, properties }, context);
    const request = { logicalId: 'Cc', type, physicalId: made.physicalId, properties };
    expect((await apis.read(request, context))?.properties).toMatchObject(properties);
    const next = { ...properties, Description: 'by sdk' };
    await apis.update({ ...request, previousProperties: properties, properties: next }, context);
    const ccClient = await context.clients.cloudControl(REGION);
    const { ResourceDescription } = await ccClient.send(
      new GetResourceCommand({ TypeName: type, Identifier: made.physicalId }),
    );
    expect(JSON.parse(ResourceDescription!.Properties!)).toMatchObject(next);
  });
});

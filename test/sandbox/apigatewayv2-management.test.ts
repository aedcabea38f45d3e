import {
  ApiGatewayV2Client,
  CreateApiCommand,
  CreateIntegrationCommand,
  CreateRouteCommand,
  CreateStageCommand,
  DeleteApiCommand,
  DeleteIntegrationCommand,
  DeleteRouteCommand,
  GetApiCommand,
  GetApisCommand,
  GetRouteCommand,
  GetRoutesCommand,
  GetStageCommand,
  GetTagsCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateApiCommand,
  UpdateRouteCommand,
  UpdateStageCommand,
} from '@aws-sdk/client-apigatewayv2';
import {
  GetResourceCommand,
  ListResourcesCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import { AddPermissionCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure } from './helpers.js';
import { ACCOUNT, clientConfig, createFunction, lambdaClient } from './lambda-runtime-helpers.js';

// API Gateway v2's management API on the models Cloud Control keeps: an HTTP API made by SDK
// calls is the one execute-api serves and Cloud Control reads.
let sandbox: Sandbox;
let api: ApiGatewayV2Client;
let cc: CloudControlClient;
let lambda: LambdaClient;
const functionArn = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:greeter`;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  api = new ApiGatewayV2Client(clientConfig(sandbox));
  cc = cloudControlClient(sandbox);
  lambda = lambdaClient(sandbox);
  await createFunction(lambda, {
    name: 'greeter',
    files: {
      'index.js':
        'exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify({ path: event.rawPath, greeting: "hi" }) });',
    },
  });
  await lambda.send(
    new AddPermissionCommand({
      FunctionName: 'greeter',
      StatementId: 'api',
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
    }),
  );
}, 60_000);
afterAll(async () => {
  api.destroy();
  cc.destroy();
  lambda.destroy();
  await sandbox.stop();
});

const invoke = async (apiId: string, path: string) => {
  const response = await fetch(`${sandbox.url}/restapis/${apiId}/$default/_user_request_${path}`);
  return { status: response.status, body: await response.text() };
};

describe('API Gateway v2 management API', () => {
  it('makes an HTTP API, its integration, route and auto-deployed stage that execute-api serves and Cloud Control reads', async () => {
    const made = await api.send(
      new CreateApiCommand({ Name: 'greetings', ProtocolType: 'HTTP', Tags: { team: 'a' } }),
    );
    const apiId = made.ApiId!;
    expect(made).toMatchObject({
      Name: 'greetings',
      ProtocolType: 'HTTP',
      ApiEndpoint: `https://${apiId}.execute-api.us-east-1.amazonaws.com`,
      RouteSelectionExpression: '$request.method $request.path',
      ApiKeySelectionExpression: '$request.header.x-api-key',
      DisableExecuteApiEndpoint: false,
      Tags: { team: 'a' },
    });
    expect(made.CreatedDate).toBeInstanceOf(Date);
    const integration = await api.send(
      new CreateIntegrationCommand({
        ApiId: apiId,
        IntegrationType: 'AWS_PROXY',
        IntegrationUri: functionArn,
        PayloadFormatVersion: '2.0',
      }),
    );
    expect(integration).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      ConnectionType: 'INTERNET',
      TimeoutInMillis: 30000,
    });
    const route = await api.send(
      new CreateRouteCommand({
        ApiId: apiId,
        RouteKey: 'GET /hello',
        Target: `integrations/${integration.IntegrationId}`,
      }),
    );
    expect(route).toMatchObject({ RouteKey: 'GET /hello', AuthorizationType: 'NONE', ApiKeyRequired: false });
    expect(route.RouteId).toMatch(/^[a-z0-9]{7}$/);
    // No stage yet: nothing answers.
    expect((await invoke(apiId, '/hello')).status).toBe(404);
    const stage = await api.send(
      new CreateStageCommand({ ApiId: apiId, StageName: '$default', AutoDeploy: true }),
    );
    expect(stage).toMatchObject({ StageName: '$default', AutoDeploy: true });

    const answer = await invoke(apiId, '/hello');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ path: '/hello', greeting: 'hi' });

    const ccModel = async (type: string, identifier: string) =>
      JSON.parse(
        (await cc.send(new GetResourceCommand({ TypeName: type, Identifier: identifier })))
          .ResourceDescription!.Properties!,
      ) as Record<string, unknown>;
    expect(await ccModel('AWS::ApiGatewayV2::Api', apiId)).toMatchObject({
      Name: 'greetings',
      ProtocolType: 'HTTP',
    });
    expect(await ccModel('AWS::ApiGatewayV2::Route', `${apiId}|${route.RouteId}`)).toMatchObject({
      RouteKey: 'GET /hello',
      Target: `integrations/${integration.IntegrationId}`,
    });
    expect(await ccModel('AWS::ApiGatewayV2::Stage', `${apiId}|$default`)).toMatchObject({
      AutoDeploy: true,
    });

    // A route moved to a new key answers there (the stage follows the API's changes).
    await api.send(new UpdateRouteCommand({ ApiId: apiId, RouteId: route.RouteId, RouteKey: 'GET /moved' }));
    expect((await api.send(new GetRouteCommand({ ApiId: apiId, RouteId: route.RouteId }))).RouteKey).toBe(
      'GET /moved',
    );
    expect((await invoke(apiId, '/moved')).status).toBe(200);
    expect((await invoke(apiId, '/hello')).status).toBe(404);

    await api.send(new UpdateApiCommand({ ApiId: apiId, Description: 'greets' }));
    expect((await api.send(new GetApiCommand({ ApiId: apiId }))).Description).toBe('greets');
    await api.send(
      new UpdateStageCommand({ ApiId: apiId, StageName: '$default', StageVariables: { v: '1' } }),
    );
    expect(
      (await api.send(new GetStageCommand({ ApiId: apiId, StageName: '$default' }))).StageVariables,
    ).toEqual({
      v: '1',
    });
    expect((await api.send(new GetApisCommand({}))).Items?.map((item) => item.ApiId)).toContain(apiId);

    // Deleting the API deletes its parts with it.
    await api.send(new DeleteApiCommand({ ApiId: apiId }));
    expect((await failure(api.send(new GetApiCommand({ ApiId: apiId })))).name).toBe('NotFoundException');
    const routes = await cc.send(new ListResourcesCommand({ TypeName: 'AWS::ApiGatewayV2::Route' }));
    expect(routes.ResourceDescriptions?.filter((r) => r.Identifier!.startsWith(`${apiId}|`))).toEqual([]);
    expect((await invoke(apiId, '/moved')).status).toBe(404);
  }, 60_000);

  it('tags an API and a stage by ARN', async () => {
    const { ApiId } = await api.send(new CreateApiCommand({ Name: 'tagged', ProtocolType: 'HTTP' }));
    await api.send(new CreateStageCommand({ ApiId, StageName: 'prod' }));
    const apiArn = `arn:aws:apigateway:us-east-1::/apis/${ApiId}`;
    await api.send(new TagResourceCommand({ ResourceArn: apiArn, Tags: { a: '1', b: '2' } }));
    await api.send(new UntagResourceCommand({ ResourceArn: apiArn, TagKeys: ['a'] }));
    expect((await api.send(new GetTagsCommand({ ResourceArn: apiArn }))).Tags).toEqual({ b: '2' });
    const stageArn = `${apiArn}/stages/prod`;
    await api.send(new TagResourceCommand({ ResourceArn: stageArn, Tags: { s: 'x' } }));
    expect((await api.send(new GetTagsCommand({ ResourceArn: stageArn }))).Tags).toEqual({ s: 'x' });
  });

  it("answers API Gateway's error codes", async () => {
    const missing = await failure(api.send(new GetApiCommand({ ApiId: 'nosuchapi0' })));
    expect(missing).toMatchObject({ name: 'NotFoundException', status: 404 });
    expect(missing.error.message).toBe(`Invalid API identifier specified ${ACCOUNT}:nosuchapi0`);
    expect(
      (await failure(api.send(new CreateApiCommand({ Name: 'bad', ProtocolType: 'GRPC' as 'HTTP' })))).name,
    ).toBe('BadRequestException');
    const { ApiId } = await api.send(new CreateApiCommand({ Name: 'rules', ProtocolType: 'HTTP' }));
    const { IntegrationId } = await api.send(
      new CreateIntegrationCommand({
        ApiId,
        IntegrationType: 'AWS_PROXY',
        IntegrationUri: functionArn,
        PayloadFormatVersion: '2.0',
      }),
    );
    expect(
      (await failure(api.send(new CreateIntegrationCommand({ ApiId, IntegrationType: 'MOCK' })))).name,
    ).toBe('BadRequestException');
    expect((await failure(api.send(new CreateRouteCommand({ ApiId, RouteKey: 'FETCH /x' })))).name).toBe(
      'BadRequestException',
    );
    expect(
      (
        await failure(
          api.send(new CreateRouteCommand({ ApiId, RouteKey: 'GET /x', Target: 'integrations/nope123' })),
        )
      ).name,
    ).toBe('BadRequestException');
    const { RouteId } = await api.send(
      new CreateRouteCommand({ ApiId, RouteKey: 'GET /x', Target: `integrations/${IntegrationId}` }),
    );
    expect((await failure(api.send(new CreateRouteCommand({ ApiId, RouteKey: 'GET /x' })))).name).toBe(
      'ConflictException',
    );
    // An integration a route targets stays until the route goes.
    expect((await failure(api.send(new DeleteIntegrationCommand({ ApiId, IntegrationId })))).name).toBe(
      'ConflictException',
    );
    await api.send(new DeleteRouteCommand({ ApiId, RouteId }));
    await api.send(new DeleteIntegrationCommand({ ApiId, IntegrationId }));
    expect((await api.send(new GetRoutesCommand({ ApiId }))).Items).toEqual([]);
    expect((await failure(api.send(new GetRouteCommand({ ApiId, RouteId })))).name).toBe('NotFoundException');
    await api.send(new CreateStageCommand({ ApiId, StageName: 'dev' }));
    expect((await failure(api.send(new CreateStageCommand({ ApiId, StageName: 'dev' })))).name).toBe(
      'ConflictException',
    );
    expect((await failure(api.send(new CreateStageCommand({ ApiId, StageName: 'no spaces' })))).name).toBe(
      'BadRequestException',
    );
  });
});

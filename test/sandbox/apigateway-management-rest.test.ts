import {
  APIGatewayClient,
  CreateDeploymentCommand,
  CreateResourceCommand,
  CreateRestApiCommand,
  CreateStageCommand,
  DeleteDeploymentCommand,
  DeleteIntegrationCommand,
  GetIntegrationCommand,
  DeleteMethodResponseCommand,
  DeleteResourceCommand,
  DeleteRestApiCommand,
  DeleteStageCommand,
  GetMethodCommand,
  GetResourcesCommand,
  GetRestApiCommand,
  GetStageCommand,
  GetStagesCommand,
  GetTagsCommand,
  PutIntegrationCommand,
  PutIntegrationResponseCommand,
  PutMethodCommand,
  PutMethodResponseCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateRestApiCommand,
  UpdateStageCommand,
} from '@aws-sdk/client-api-gateway';
import { GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { cloudControlClient } from './helpers.js';

// API Gateway's management API for REST APIs keeps each API as Cloud Control's models: what
// these calls make, execute-api serves and Cloud Control reads.
const sandbox = useSandbox();
let apigw: APIGatewayClient;

beforeAll(() => {
  apigw = new APIGatewayClient({ region: 'us-east-1', maxAttempts: 1 });
});

const errorOf = async (call: Promise<unknown>) =>
  (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } } | undefined;

async function call(apiId: string, stage: string, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${sandbox.current.url}/restapis/${apiId}/${stage}/_user_request_${path}`);
  return { status: response.status, body: await response.text() };
}

/** A GET method whose MOCK integration answers `body`. */
async function mockMethod(restApiId: string, resourceId: string, body: string): Promise<void> {
  const key = { restApiId, resourceId, httpMethod: 'GET' };
  await apigw.send(new PutMethodCommand({ ...key, authorizationType: 'NONE' }));
  await apigw.send(
    new PutIntegrationCommand({
      ...key,
      type: 'MOCK',
      requestTemplates: { 'application/json': '{"statusCode": 200}' },
    }),
  );
  await apigw.send(
    new PutIntegrationResponseCommand({
      ...key,
      statusCode: '200',
      responseTemplates: { 'application/json': body },
    }),
  );
  await apigw.send(new PutMethodResponseCommand({ ...key, statusCode: '200' }));
}

describe('the sandbox: API Gateway REST API management calls', () => {
  it('makes an API execute-api serves from its stage, a new deployment reaching callers once the stage moves to it', async () => {
    const api = await apigw.send(
      new CreateRestApiCommand({ name: 'made-by-sdk', description: 'd', tags: { team: 'a' } }),
    );
    expect(api).toMatchObject({
      name: 'made-by-sdk',
      description: 'd',
      apiKeySource: 'HEADER',
      endpointConfiguration: { types: ['EDGE'] },
      disableExecuteApiEndpoint: false,
      tags: { team: 'a' },
    });
    expect(api.id).toMatch(/^[a-z0-9]{10}$/);
    expect(api.createdDate).toBeInstanceOf(Date);
    const restApiId = api.id!;
    const root = (await apigw.send(new GetResourcesCommand({ restApiId }))).items!;
    expect(root).toEqual([{ id: api.rootResourceId, path: '/' }]);

    const hello = await apigw.send(
      new CreateResourceCommand({ restApiId, parentId: api.rootResourceId, pathPart: 'hello' }),
    );
    expect(hello).toMatchObject({ parentId: api.rootResourceId, pathPart: 'hello', path: '/hello' });
    const child = await apigw.send(
      new CreateResourceCommand({ restApiId, parentId: hello.id, pathPart: '{name+}' }),
    );
    expect(child.path).toBe('/hello/{name+}');
    await mockMethod(restApiId, hello.id!, '{"version": 1}');

    const method = await apigw.send(
      new GetMethodCommand({ restApiId, resourceId: hello.id, httpMethod: 'GET' }),
    );
    expect(method).toMatchObject({
      httpMethod: 'GET',
      authorizationType: 'NONE',
      apiKeyRequired: false,
      methodResponses: { '200': { statusCode: '200' } },
      methodIntegration: {
        type: 'MOCK',
        passthroughBehavior: 'WHEN_NO_MATCH',
        timeoutInMillis: 29000,
        integrationResponses: {
          '200': { statusCode: '200', responseTemplates: { 'application/json': '{"version": 1}' } },
        },
      },
    });
    const embedded = await apigw.send(new GetResourcesCommand({ restApiId, embed: ['methods'] }));
    expect(
      embedded.items!.find((item) => item.id === hello.id)?.resourceMethods?.GET?.methodIntegration?.type,
    ).toBe('MOCK');

    const first = await apigw.send(new CreateDeploymentCommand({ restApiId, description: 'first' }));
    const stage = await apigw.send(
      new CreateStageCommand({ restApiId, stageName: 'live', deploymentId: first.id, variables: { a: '1' } }),
    );
    expect(stage).toMatchObject({ stageName: 'live', deploymentId: first.id, variables: { a: '1' } });
    expect(await call(restApiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });

    // A changed method is served only once a new deployment reaches the stage.
    await apigw.send(
      new DeleteMethodResponseCommand({
        restApiId,
        resourceId: hello.id,
        httpMethod: 'GET',
        statusCode: '200',
      }),
    );
    await apigw.send(
      new PutIntegrationResponseCommand({
        restApiId,
        resourceId: hello.id,
        httpMethod: 'GET',
        statusCode: '200',
        responseTemplates: { 'application/json': '{"version": 2}' },
      }),
    );
    expect(await call(restApiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });
    const second = await apigw.send(new CreateDeploymentCommand({ restApiId }));
    await apigw.send(
      new UpdateStageCommand({
        restApiId,
        stageName: 'live',
        patchOperations: [
          { op: 'replace', path: '/deploymentId', value: second.id },
          { op: 'remove', path: '/variables/a' },
          { op: 'replace', path: '/variables/b', value: '2' },
        ],
      }),
    );
    expect(await apigw.send(new GetStageCommand({ restApiId, stageName: 'live' }))).toMatchObject({
      deploymentId: second.id,
      variables: { b: '2' },
    });
    expect(await call(restApiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 2}' });

    // The deployment a stage no longer points at can go; the one it does cannot.
    await apigw.send(new DeleteDeploymentCommand({ restApiId, deploymentId: first.id }));
    expect(
      await errorOf(apigw.send(new DeleteDeploymentCommand({ restApiId, deploymentId: second.id }))),
    ).toMatchObject({
      name: 'BadRequestException',
      message: 'Active stages pointing to this deployment must be moved or deleted',
    });

    // Cloud Control reads the same models.
    const cc = cloudControlClient(sandbox.current);
    const ccApi = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::ApiGateway::RestApi', Identifier: restApiId }),
    );
    expect(JSON.parse(ccApi.ResourceDescription!.Properties!)).toMatchObject({
      Name: 'made-by-sdk',
      RootResourceId: api.rootResourceId,
      Tags: [{ Key: 'team', Value: 'a' }],
    });
    cc.destroy();

    // Deleting a resource takes what is below it; deleting the API takes the rest.
    await apigw.send(new DeleteResourceCommand({ restApiId, resourceId: hello.id }));
    expect(
      (await apigw.send(new GetResourcesCommand({ restApiId }))).items!.map((item) => item.path),
    ).toEqual(['/']);
    await apigw.send(new DeleteStageCommand({ restApiId, stageName: 'live' }));
    await apigw.send(new DeleteRestApiCommand({ restApiId }));
    expect((await errorOf(apigw.send(new GetRestApiCommand({ restApiId }))))?.name).toBe('NotFoundException');
    expect((await call(restApiId, 'live', '/hello')).status).toBe(404);
  });

  it('updates an API through patch operations, and tags it and its stages by ARN', async () => {
    const api = await apigw.send(
      new CreateRestApiCommand({ name: 'patched', binaryMediaTypes: ['image/png'] }),
    );
    const restApiId = api.id!;
    const updated = await apigw.send(
      new UpdateRestApiCommand({
        restApiId,
        patchOperations: [
          { op: 'replace', path: '/name', value: 'renamed' },
          { op: 'replace', path: '/endpointConfiguration/types/0', value: 'REGIONAL' },
          { op: 'replace', path: '/minimumCompressionSize', value: '1024' },
          { op: 'remove', path: '/binaryMediaTypes/image~1png' },
          { op: 'add', path: '/binaryMediaTypes/application~1octet-stream' },
          { op: 'replace', path: '/policy', value: '{"Version":"2012-10-17","Statement":[]}' },
        ],
      }),
    );
    expect(updated).toMatchObject({
      name: 'renamed',
      endpointConfiguration: { types: ['REGIONAL'] },
      minimumCompressionSize: 1024,
      binaryMediaTypes: ['application/octet-stream'],
    });
    expect(JSON.parse(updated.policy!)).toEqual({ Version: '2012-10-17', Statement: [] });
    expect(
      await errorOf(
        apigw.send(
          new UpdateRestApiCommand({
            restApiId,
            patchOperations: [{ op: 'replace', path: '/nope', value: 'x' }],
          }),
        ),
      ),
    ).toMatchObject({ name: 'BadRequestException' });

    const arn = `arn:aws:apigateway:us-east-1::/restapis/${restApiId}`;
    await apigw.send(new TagResourceCommand({ resourceArn: arn, tags: { a: '1', b: '2' } }));
    await apigw.send(new UntagResourceCommand({ resourceArn: arn, tagKeys: ['a'] }));
    expect((await apigw.send(new GetTagsCommand({ resourceArn: arn }))).tags).toEqual({ b: '2' });

    await apigw.send(
      new PutMethodCommand({
        restApiId,
        resourceId: api.rootResourceId,
        httpMethod: 'ANY',
        authorizationType: 'NONE',
      }),
    );
    const deployment = await apigw.send(new CreateDeploymentCommand({ restApiId }));
    await apigw.send(new CreateStageCommand({ restApiId, stageName: 'prod', deploymentId: deployment.id }));
    await apigw.send(new TagResourceCommand({ resourceArn: `${arn}/stages/prod`, tags: { s: 'x' } }));
    expect((await apigw.send(new GetStagesCommand({ restApiId }))).item).toEqual([
      expect.objectContaining({ stageName: 'prod', tags: { s: 'x' } }),
    ]);
  });

  it("answers API Gateway's error codes", async () => {
    const missing = await errorOf(apigw.send(new GetRestApiCommand({ restApiId: 'abcdefghij' })));
    expect(missing).toMatchObject({ name: 'NotFoundException', $metadata: { httpStatusCode: 404 } });
    expect(missing?.message).toBe('Invalid API identifier specified 000000000000:abcdefghij');
    expect((await errorOf(apigw.send(new CreateRestApiCommand({ name: '' }))))?.name).toBe(
      'BadRequestException',
    );

    const api = await apigw.send(new CreateRestApiCommand({ name: 'errors' }));
    const restApiId = api.id!;
    const root = api.rootResourceId!;
    expect(await errorOf(apigw.send(new CreateDeploymentCommand({ restApiId })))).toMatchObject({
      name: 'BadRequestException',
      message: "The REST API doesn't contain any methods",
    });
    await apigw.send(new CreateResourceCommand({ restApiId, parentId: root, pathPart: 'a' }));
    expect(
      await errorOf(apigw.send(new CreateResourceCommand({ restApiId, parentId: root, pathPart: 'a' }))),
    ).toMatchObject({ name: 'ConflictException', $metadata: { httpStatusCode: 409 } });
    expect(
      (await errorOf(apigw.send(new CreateResourceCommand({ restApiId, parentId: root, pathPart: 'a b' }))))
        ?.name,
    ).toBe('BadRequestException');
    expect(
      (await errorOf(apigw.send(new CreateResourceCommand({ restApiId, parentId: 'nope00', pathPart: 'b' }))))
        ?.name,
    ).toBe('NotFoundException');
    const key = { restApiId, resourceId: root, httpMethod: 'GET' };
    expect((await errorOf(apigw.send(new PutIntegrationCommand({ ...key, type: 'MOCK' }))))?.name).toBe(
      'NotFoundException',
    );
    expect(
      (await errorOf(apigw.send(new PutMethodCommand({ ...key, authorizationType: 'CUSTOM' }))))?.name,
    ).toBe('BadRequestException');
    await apigw.send(new PutMethodCommand({ ...key, authorizationType: 'NONE' }));
    expect(
      (await errorOf(apigw.send(new PutMethodCommand({ ...key, authorizationType: 'NONE' }))))?.name,
    ).toBe('ConflictException');
    expect(
      (
        await errorOf(
          apigw.send(
            new PutIntegrationCommand({
              ...key,
              type: 'AWS_PROXY',
              integrationHttpMethod: 'POST',
              uri: 'https://example.com',
            }),
          ),
        )
      )?.name,
    ).toBe('BadRequestException');
    await apigw.send(new PutIntegrationCommand({ ...key, type: 'MOCK' }));
    await apigw.send(new DeleteIntegrationCommand(key));
    expect((await errorOf(apigw.send(new GetIntegrationCommand(key))))?.name).toBe('NotFoundException');
    const deployment = await apigw.send(new CreateDeploymentCommand({ restApiId }));
    await apigw.send(new CreateStageCommand({ restApiId, stageName: 'prod', deploymentId: deployment.id }));
    expect(
      await errorOf(
        apigw.send(new CreateStageCommand({ restApiId, stageName: 'prod', deploymentId: deployment.id })),
      ),
    ).toMatchObject({ name: 'ConflictException' });
    expect((await errorOf(apigw.send(new GetStageCommand({ restApiId, stageName: 'nope' }))))?.name).toBe(
      'NotFoundException',
    );
  });
});

import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { beforeAll, describe, expect, it } from 'vitest';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { requestWithHost } from '../helpers/host-request.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A REST API as a CDK user writes it, deployed with cdkd, then called only over HTTP: a
// Lambda proxy (payload 1.0), a greedy ANY behind a TOKEN authorizer, a mock integration
// reading the stage's variables, CORS preflight from the CDK's OPTIONS mocks, binary answers.
const sandbox = useSandbox();
const STACK = 'RestApiE2E';

const ECHO = `exports.handler = async (event) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json', 'x-echo': 'yes' },
  multiValueHeaders: { 'set-cookie': ['a=1', 'b=2'] },
  body: JSON.stringify(event),
});`;

const BINARY = `exports.handler = async () => ({
  statusCode: 200,
  headers: { 'content-type': 'image/png' },
  isBase64Encoded: true,
  body: Buffer.from([137, 80, 78, 71, 0, 255]).toString('base64'),
});`;

// Allows the method it was asked about, denies on 'deny', fails with Unauthorized on
// 'expired', and allows only another path for anything else.
const AUTHORIZER = `exports.handler = async (event) => {
  const token = event.authorizationToken;
  if (token === 'expired') throw new Error('Unauthorized');
  const effect = token === 'deny' ? 'Deny' : 'Allow';
  const resource = token === 'allow' || token === 'deny' ? event.methodArn : event.methodArn.replace(/\\/[^/]*$/, '/elsewhere');
  return {
    principalId: 'user-' + token,
    policyDocument: { Version: '2012-10-17', Statement: [{ Effect: effect, Action: 'execute-api:Invoke', Resource: resource }] },
    context: { user: 'alice', level: 3 },
  };
};`;

let base = '';
let apiId = '';
let output = '';

beforeAll(async () => {
  const assembly = synthesizeApp((app) => {
    const stack = new Stack(app, STACK);
    const fn = (id: string, code: string) => inlineFunction(stack, id, code);
    const api = new apigateway.RestApi(stack, 'Api', {
      deployOptions: { stageName: 'prod', variables: { color: 'blue' } },
      defaultCorsPreflightOptions: { allowOrigins: ['https://app.example'] },
      binaryMediaTypes: ['image/png'],
    });
    const echo = new apigateway.LambdaIntegration(fn('Echo', ECHO));
    const items = api.root.addResource('items');
    items.addMethod('GET', echo);
    items.addResource('{proxy+}').addMethod('ANY', echo, {
      authorizer: new apigateway.TokenAuthorizer(stack, 'Tokens', {
        handler: fn('Authorizer', AUTHORIZER),
        resultsCacheTtl: Duration.minutes(5),
      }),
    });
    api.root.addResource('binary').addMethod('GET', new apigateway.LambdaIntegration(fn('Binary', BINARY)));
    api.root.addResource('mock').addMethod(
      'GET',
      new apigateway.MockIntegration({
        requestTemplates: { 'application/json': '{"statusCode": 202}' },
        integrationResponses: [
          { statusCode: '200', responseTemplates: { 'application/json': '{"unexpected": true}' } },
          {
            statusCode: '202',
            selectionPattern: '202',
            responseParameters: { 'method.response.header.X-Mocked': "'yes'" },
            responseTemplates: {
              'application/json': '{"stage": "$context.stage", "color": "$stageVariables.color"}',
            },
          },
        ],
      }),
      {
        methodResponses: [
          { statusCode: '200' },
          { statusCode: '202', responseParameters: { 'method.response.header.X-Mocked': true } },
        ],
      },
    );
    new CfnOutput(stack, 'ApiId', { value: api.restApiId });
  });
  expect((await runCli(['bootstrap'], { env: sandboxEnv(sandbox.current.url) })).code).toBe(0);
  const deployed = await runCli(['deploy', '-a', assembly], { env: sandboxEnv(sandbox.current.url) });
  expect(deployed.code, deployed.stderr).toBe(0);
  output = deployed.stdout;
  apiId = /\.ApiId = (\S+)/.exec(deployed.stdout)![1]!;
  base = `${sandbox.current.url}/restapis/${apiId}/prod/_user_request_`;
}, 240_000);

/** The parts of a 1.0 event the tests read beyond `toMatchObject`. */
interface ProxyEvent {
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  requestContext: Record<string, unknown>;
}

const json = async (response: Response) => JSON.parse(await response.text()) as ProxyEvent;

describe('a REST API deployed by cdkd answers HTTP', () => {
  it("lists its stage's URL, the one the CDK's output names, with the local ones", async () => {
    const { endpoints } = (await (await fetch(`${sandbox.current.url}/_sandbox/endpoints`)).json()) as {
      endpoints: Array<Record<string, string>>;
    };
    const awsUrl = `https://${apiId}.execute-api.us-east-1.amazonaws.com/prod/`;
    expect(output).toContain(`= ${awsUrl}`);
    expect(endpoints).toContainEqual({
      kind: 'rest-api',
      id: apiId,
      region: 'us-east-1',
      name: 'prod',
      awsUrl,
      hostStyleUrl: `http://${apiId}.execute-api.localhost:${sandbox.current.port}/prod/`,
      pathStyleUrl: `${sandbox.current.url}/restapis/${apiId}/prod/_user_request_/`,
    });
  });

  it('hands a Lambda proxy the 1.0 event and maps its answer, multi-value headers included', async () => {
    const response = await fetch(`${base}/items?tag=a&tag=b`, { headers: { 'X-Custom': 'v1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-echo')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    const event = await json(response);
    expect(event).toMatchObject({
      resource: '/items',
      path: '/items',
      httpMethod: 'GET',
      queryStringParameters: { tag: 'b' },
      multiValueQueryStringParameters: { tag: ['a', 'b'] },
      pathParameters: null,
      stageVariables: { color: 'blue' },
      body: null,
      isBase64Encoded: false,
      requestContext: {
        resourcePath: '/items',
        httpMethod: 'GET',
        path: '/prod/items',
        stage: 'prod',
        apiId,
        accountId: '000000000000',
        domainName: `${apiId}.execute-api.us-east-1.amazonaws.com`,
        requestId: response.headers.get('x-amzn-requestid'),
        identity: { sourceIp: '127.0.0.1' },
      },
    });
    expect(event.headers['X-Custom']).toBe('v1');
    expect(event.multiValueHeaders['X-Custom']).toEqual(['v1']);
    expect(event.requestContext.resourceId).toMatch(/^[a-z0-9]{6}$/);
  });

  it('runs the TOKEN authorizer: its policy allows or denies the method, its context reaches the integration', async () => {
    const allowed = await fetch(`${base}/items/a/b`, {
      method: 'POST',
      headers: { authorization: 'allow', 'content-type': 'application/json' },
      body: '{"n":1}',
    });
    expect(allowed.status).toBe(200);
    expect(await json(allowed)).toMatchObject({
      resource: '/items/{proxy+}',
      path: '/items/a/b',
      httpMethod: 'POST',
      pathParameters: { proxy: 'a/b' },
      body: '{"n":1}',
      requestContext: { authorizer: { user: 'alice', level: '3', principalId: 'user-allow' } },
    });

    const denied = await fetch(`${base}/items/a/b`, { headers: { authorization: 'deny' } });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({
      Message: 'User is not authorized to access this resource with an explicit deny',
    });
    const elsewhere = await fetch(`${base}/items/a/b`, { headers: { authorization: 'other' } });
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.json()).toEqual({ Message: 'User is not authorized to access this resource' });
    const expired = await fetch(`${base}/items/a/b`, { headers: { authorization: 'expired' } });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ message: 'Unauthorized' });
    const missing = await fetch(`${base}/items/a/b`);
    expect(missing.status).toBe(401);
  });

  it('answers a mock integration from its templates, the stage and its variables filled in', async () => {
    const response = await fetch(`${base}/mock`);
    expect(response.status).toBe(202);
    expect(response.headers.get('x-mocked')).toBe('yes');
    expect(await response.json()).toEqual({ stage: 'prod', color: 'blue' });
  });

  it('answers CORS preflight from the OPTIONS mock methods the CDK generates', async () => {
    const response = await fetch(`${base}/items`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('turns a base64 answer into bytes for a client accepting a binary media type, and leaves it text otherwise', async () => {
    const binary = await fetch(`${base}/binary`, { headers: { accept: 'image/png' } });
    expect(binary.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await binary.arrayBuffer())]).toEqual([137, 80, 78, 71, 0, 255]);
    const text = await fetch(`${base}/binary`, { headers: { accept: 'application/json' } });
    expect(await text.text()).toBe(Buffer.from([137, 80, 78, 71, 0, 255]).toString('base64'));
  });

  it('answers host style, `{id}.execute-api.localhost` with the stage first in the path', async () => {
    const response = await requestWithHost(
      sandbox.current.url,
      `${apiId}.execute-api.localhost:${sandbox.current.port}`,
      '/prod/items',
    );
    expect(response.status).toBe(200);
    const event = JSON.parse(response.body) as ProxyEvent;
    expect(event.requestContext).toMatchObject({
      path: '/prod/items',
      domainName: `${apiId}.execute-api.localhost`,
    });
    const aws = await requestWithHost(
      sandbox.current.url,
      `${apiId}.execute-api.us-east-1.amazonaws.com`,
      '/prod/items',
    );
    expect(aws.status).toBe(200);
  });

  it('answers a path no resource has with 403 Missing Authentication Token', async () => {
    const response = await fetch(`${base}/nothing/here`);
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    expect(await response.json()).toEqual({ message: 'Missing Authentication Token' });
  });
});

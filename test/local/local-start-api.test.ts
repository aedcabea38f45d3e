import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import {
  Cors,
  IdentitySource,
  LambdaIntegration,
  LambdaRestApi,
  RequestAuthorizer,
  RestApi,
  TokenAuthorizer,
} from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonInterpreter } from '../../src/lambda-runtime/python/python-runtime.js';
import { tempDir } from '../assembly/helpers.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { runCli, startCli } from '../helpers/cli.js';

// `cdkd local start-api` on a real aws-cdk-lib app: a LambdaRestApi (proxy, TOKEN authorizer,
// CORS preflight) and an HttpApi (path parameter, payload formats 1.0 and 2.0, a simple-response
// authorizer, CORS), answered by Node.js and Python handlers run on this machine.
const python = pythonInterpreter() !== null;
const NODE_HANDLER = (mark: string) =>
  [
    'exports.handler = async (event) => {',
    "  if (event.queryStringParameters && event.queryStringParameters.binary) return { statusCode: 200, isBase64Encoded: true, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 255]).toString('base64') };",
    `  return { statusCode: 201, headers: { 'x-mark': '${mark}' }, multiValueHeaders: { 'x-many': ['a', 'b'] }, body: JSON.stringify({ mark: '${mark}', version: event.version || null,`,
    '    path: event.path || event.rawPath, params: event.pathParameters || null, query: event.queryStringParameters || null,',
    '    body: event.body || null, base64: event.isBase64Encoded, principal: (event.requestContext.authorizer || {}).principalId || null }) };',
    '};',
  ].join('\n');

let app: string;
let server: ReturnType<typeof startCli>;
let rest: string;
let restByRequest: string;
let http: string;

beforeAll(async () => {
  const work = tempDir();
  mkdirSync(join(work, 'node'));
  writeFileSync(join(work, 'node', 'index.js'), NODE_HANDLER('v1'));
  mkdirSync(join(work, 'py'));
  writeFileSync(
    join(work, 'py', 'index.py'),
    [
      'import json',
      'def handler(event, context):',
      "    return {'statusCode': 200, 'body': json.dumps({'runtime': 'python', 'id': event['pathParameters']['id'], 'version': event['version'], 'route': event['routeKey']})}",
      '',
    ].join('\n'),
  );
  app = synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'Web');
    const node = new Function(stack, 'Node', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromAsset(join(work, 'node')),
    });
    const py = new Function(stack, 'Py', {
      runtime: Runtime.PYTHON_3_12,
      handler: 'index.handler',
      code: Code.fromAsset(join(work, 'py')),
    });
    const tokenAuth = inlineFunction(
      stack,
      'TokenAuth',
      "exports.handler = async (event) => ({ principalId: 'ada', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: event.authorizationToken === 'allow' ? 'Allow' : 'Deny', Resource: event.methodArn.split('/').slice(0, 2).join('/') + '/*' }] } });",
    );
    const simpleAuth = inlineFunction(
      stack,
      'SimpleAuth',
      "exports.handler = async (event) => ({ isAuthorized: event.headers.authorization === 'allow' });",
    );
    new LambdaRestApi(stack, 'Rest', {
      handler: node,
      defaultCorsPreflightOptions: { allowOrigins: Cors.ALL_ORIGINS },
      defaultMethodOptions: { authorizer: new TokenAuthorizer(stack, 'Token', { handler: tokenAuth }) },
    });
    const requestAuth = inlineFunction(
      stack,
      'RequestAuth',
      "exports.handler = async (event) => ({ principalId: 'req-' + event.queryStringParameters.key, policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: event.queryStringParameters.key === 'good' ? 'Allow' : 'Deny', Resource: event.methodArn }] } });",
    );
    const byRequest = new RestApi(stack, 'Req');
    byRequest.root
      .addResource('things')
      .addResource('{id}')
      .addMethod('GET', new LambdaIntegration(node), {
        authorizer: new RequestAuthorizer(stack, 'ByQuery', {
          handler: requestAuth,
          identitySources: [IdentitySource.queryString('key')],
        }),
      });
    const api = new HttpApi(stack, 'Http', {
      corsPreflight: { allowOrigins: ['https://example.com'], allowMethods: [CorsHttpMethod.GET] },
    });
    api.addRoutes({
      path: '/items/{id}',
      methods: [HttpMethod.GET],
      integration: new HttpLambdaIntegration('Py', py),
    });
    api.addRoutes({
      path: '/v1/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('V1', node, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_1_0,
      }),
    });
    api.addRoutes({
      path: '/echo',
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration('Echo', node),
    });
    api.addRoutes({
      path: '/secure',
      methods: [HttpMethod.GET],
      integration: new HttpLambdaIntegration('Secure', node),
      authorizer: new HttpLambdaAuthorizer('Simple', simpleAuth, {
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        resultsCacheTtl: undefined,
      }),
    });
  });
  server = startCli(['local', 'start-api', 'Web', '-a', app, '--port', '0', '--no-deployed'], 'Serving');
  await Promise.race([
    server.creating,
    server.done.then((code) => {
      throw new Error(`start-api exited with ${code}: ${server.stderr()}`);
    }),
  ]);
  rest = /REST API [^\n]*\(Rest\): (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())![1]!;
  restByRequest = /REST API [^\n]*\(Req\): (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())![1]!;
  http = /HTTP API [^\n]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())![1]!;
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.done;
});

describe('cdkd local start-api: the REST API (LambdaRestApi, payload 1.0)', () => {
  it('routes a greedy proxy path with its query string to the handler, through the TOKEN authorizer', async () => {
    const response = await fetch(`${rest}/hello/wide%20world?x=1&x=2`, {
      headers: { authorization: 'allow' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-mark')).toBe('v1');
    expect(response.headers.get('x-many')).toBe('a, b');
    expect(await response.json()).toEqual({
      mark: 'v1',
      version: null,
      path: '/hello/wide world',
      params: { proxy: 'hello/wide world' },
      query: { x: '2' },
      body: null,
      base64: false,
      principal: 'ada',
    });
  });

  it('answers a denying authorizer with 403 and a missing token with 401', async () => {
    const denied = await fetch(`${rest}/x`, { headers: { authorization: 'deny' } });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({
      Message: 'User is not authorized to access this resource with an explicit deny',
    });
    expect((await fetch(`${rest}/x`)).status).toBe(401);
  });

  it('runs a REQUEST authorizer on a query-string identity, with a {id} path parameter', async () => {
    const allowed = await fetch(`${restByRequest}/things/7?key=good`);
    expect(allowed.status).toBe(201);
    expect(await allowed.json()).toMatchObject({
      path: '/things/7',
      params: { id: '7' },
      principal: 'req-good',
    });
    expect((await fetch(`${restByRequest}/things/7?key=bad`)).status).toBe(403);
    expect((await fetch(`${restByRequest}/things/7`)).status).toBe(401);
    // An unknown route of a REST API: API Gateway's 403 Missing Authentication Token.
    const unknown = await fetch(`${restByRequest}/nothing`);
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toEqual({ message: 'Missing Authentication Token' });
  });

  it('answers a CORS preflight from the MOCK OPTIONS method', async () => {
    const response = await fetch(`${rest}/anything`, {
      method: 'OPTIONS',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'PUT' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT');
  });

  it('passes a base64 answer on as its text when the API has no binary media types', async () => {
    const response = await fetch(`${rest}/bin?binary=1`, { headers: { authorization: 'allow' } });
    expect(response.status).toBe(200);
    // The REST API has no binary media types: the client gets the base64 text, as on AWS.
    expect(await response.text()).toBe(Buffer.from([0, 1, 2, 255]).toString('base64'));
  });
});

describe('cdkd local start-api: the HTTP API', () => {
  it.skipIf(!python)(
    `runs a Python handler with the path parameter in payload 2.0${python ? '' : ' (skipped: no python3)'}`,
    async () => {
      const response = await fetch(`${http}/items/42`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        runtime: 'python',
        id: '42',
        version: '2.0',
        route: 'GET /items/{id}',
      });
    },
  );

  it('runs a payload 1.0 route with a greedy path parameter', async () => {
    const response = await fetch(`${http}/v1/a/b?q=z`, { method: 'DELETE' });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      version: '1.0',
      path: '/v1/a/b',
      params: { proxy: 'a/b' },
      query: { q: 'z' },
    });
  });

  it('hands a binary body base64-encoded (2.0) and sends a base64 answer as bytes', async () => {
    const sent = await fetch(`${http}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([9, 8, 7]),
    });
    expect(await sent.json()).toMatchObject({
      version: '2.0',
      base64: true,
      body: Buffer.from([9, 8, 7]).toString('base64'),
    });
    const bytes = await fetch(`${http}/echo?binary=1`, { method: 'POST' });
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('answers an unknown route with 404', async () => {
    const response = await fetch(`${http}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found' });
  });

  it('refuses through a simple-response authorizer (403), lets an authorized request through', async () => {
    expect((await fetch(`${http}/secure`, { headers: { authorization: 'deny' } })).status).toBe(403);
    expect((await fetch(`${http}/secure`)).status).toBe(401);
    expect((await fetch(`${http}/secure`, { headers: { authorization: 'allow' } })).status).toBe(201);
  });

  it("answers a CORS preflight from the API's CorsConfiguration", async () => {
    const allowed = await fetch(`${http}/items/1`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://example.com');
    const other = await fetch(`${http}/items/1`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('cdkd local start-api: code reloads', () => {
  it('shows an edit to the handler on the next request, without a restart', async () => {
    const asset = readdirSync(app).find(
      (entry) =>
        entry.startsWith('asset.') &&
        readFileSync(join(app, entry, 'index.js'), { flag: 'r' }).includes("mark: 'v1'"),
    );
    writeFileSync(join(app, asset!, 'index.js'), NODE_HANDLER('v2'));
    const response = await fetch(`${http}/v1/again`);
    expect(await response.json()).toMatchObject({ mark: 'v2' });
  });
});

describe('cdkd local start-api: refusals', () => {
  it('refuses a relative aws:asset:path escaping the assembly before serving', async () => {
    const copy = tempDir();
    for (const entry of readdirSync(app)) {
      if (entry.endsWith('.json')) writeFileSync(join(copy, entry), readFileSync(join(app, entry)));
    }
    const template = JSON.parse(readFileSync(join(copy, 'Web.template.json'), 'utf8')) as {
      Resources: Record<string, { Type: string; Metadata?: Record<string, unknown> }>;
    };
    const node = Object.values(template.Resources).find(
      (resource) =>
        resource.Type === 'AWS::Lambda::Function' &&
        typeof resource.Metadata?.['aws:asset:path'] === 'string',
    )!;
    node.Metadata!['aws:asset:path'] = '../../etc';
    writeFileSync(join(copy, 'Web.template.json'), JSON.stringify(template));
    const result = await runCli(['local', 'start-api', '-a', copy, '--port', '0', '--no-deployed']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ASSET_PATH_ESCAPES');
    expect(result.stderr).not.toContain('Serving');
  });

  it('names the stacks with APIs when the one named has none', async () => {
    const result = await runCli(['local', 'start-api', 'Nope', '-a', app, '--port', '0', '--no-deployed']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('LOCAL_API_NOT_FOUND');
    expect(result.stderr).toContain('Web');
  });
});

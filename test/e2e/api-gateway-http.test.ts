import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import {
  HttpJwtAuthorizer,
  HttpLambdaAuthorizer,
  HttpLambdaResponseType,
} from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { requestWithHost } from '../helpers/host-request.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// An HTTP API and function URLs as a CDK user writes them, deployed with cdkd, called only
// over HTTP: Lambda routes with path parameters (payload 2.0 and 1.0), a Lambda authorizer
// with simple responses, a JWT authorizer whose keys a server of the test's serves, CORS
// preflight from the API's CorsConfiguration, function URLs with auth NONE and AWS_IAM.
const sandbox = useSandbox();
const STACK = 'HttpApiE2E';

const ECHO = `exports.handler = async (event) => ({
  statusCode: 201,
  headers: { 'x-v': '2', 'access-control-allow-origin': 'https://backend.example' },
  cookies: ['c=1', 'd=2'],
  body: JSON.stringify(event),
});`;
const PLAIN = `exports.handler = async (event) => ({ hello: 'world', auth: event.requestContext.authorizer || null });`;
const V1 = `exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify(event) });`;
const SIMPLE_AUTHORIZER = `exports.handler = async (event) => ({
  isAuthorized: event.headers.authorization === 'let-me-in',
  context: { who: 'bob', level: 2 },
});`;

const AUDIENCE = 'e2e-audience';
const jwks = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
let issuer = '';
let keyServer: Server;

function token(claims: Record<string, unknown>, key: KeyObject = jwks.privateKey): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${part({ iss: issuer, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 600, ...claims })}`;
  return `${unsigned}.${sign('sha256', Buffer.from(unsigned), key).toString('base64url')}`;
}

let apiId = '';
let output = '';
const urls: Record<string, string> = {};

beforeAll(async () => {
  keyServer = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/.well-known/openid-configuration') {
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys` }));
    } else if (request.url === '/keys') {
      response.end(
        JSON.stringify({
          keys: [{ ...jwks.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }],
        }),
      );
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((listening) => keyServer.listen(0, '127.0.0.1', listening));
  issuer = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}`;

  const assembly = synthesizeApp((app) => {
    const stack = new Stack(app, STACK);
    const fn = (id: string, code: string) => inlineFunction(stack, id, code);
    const echo = fn('Echo', ECHO);
    const plain = fn('Plain', PLAIN);
    const api = new apigwv2.HttpApi(stack, 'Api', {
      corsPreflight: {
        allowOrigins: ['https://app.example'],
        allowMethods: [apigwv2.CorsHttpMethod.GET, apigwv2.CorsHttpMethod.POST],
        allowHeaders: ['authorization'],
        maxAge: Duration.minutes(10),
      },
    });
    const echoIntegration = new HttpLambdaIntegration('EchoIntegration', echo);
    api.addRoutes({
      path: '/things/{id}',
      methods: [apigwv2.HttpMethod.GET, apigwv2.HttpMethod.POST],
      integration: echoIntegration,
    });
    api.addRoutes({
      path: '/plain',
      methods: [apigwv2.HttpMethod.GET],
      integration: new HttpLambdaIntegration('PlainIntegration', plain),
    });
    api.addRoutes({
      path: '/v1/{proxy+}',
      methods: [apigwv2.HttpMethod.ANY],
      integration: new HttpLambdaIntegration('V1Integration', fn('V1', V1), {
        payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_1_0,
      }),
    });
    api.addRoutes({
      path: '/secure',
      methods: [apigwv2.HttpMethod.GET],
      integration: echoIntegration,
      authorizer: new HttpLambdaAuthorizer('Simple', fn('Authorizer', SIMPLE_AUTHORIZER), {
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        resultsCacheTtl: Duration.seconds(0),
      }),
    });
    api.addRoutes({
      path: '/jwt',
      methods: [apigwv2.HttpMethod.GET],
      integration: new HttpLambdaIntegration('JwtIntegration', plain),
      authorizer: new HttpJwtAuthorizer('Jwt', issuer, { jwtAudience: [AUDIENCE] }),
      authorizationScopes: ['read'],
    });
    new CfnOutput(stack, 'ApiId', { value: api.apiId });
    new CfnOutput(stack, 'ApiUrl', { value: api.url! });
    new CfnOutput(stack, 'OpenUrl', {
      value: echo.addFunctionUrl({ authType: FunctionUrlAuthType.NONE }).url,
    });
    new CfnOutput(stack, 'IamUrl', {
      value: plain.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM }).url,
    });
  });
  expect((await runCli(['bootstrap'], { env: sandboxEnv(sandbox.current.url) })).code).toBe(0);
  const deployed = await runCli(['deploy', '-a', assembly], { env: sandboxEnv(sandbox.current.url) });
  expect(deployed.code, deployed.stderr).toBe(0);
  output = deployed.stdout;
  apiId = /\.ApiId = (\S+)/.exec(output)![1]!;
  for (const name of ['OpenUrl', 'IamUrl']) urls[name] = new RegExp(`\\.${name} = (\\S+)`).exec(output)![1]!;
}, 240_000);

afterAll(() => new Promise<void>((closed) => keyServer.close(() => closed())));

const base = () => `${sandbox.current.url}/restapis/${apiId}/$default/_user_request_`;

/** The parts of an event the tests read beyond `toMatchObject`. */
interface Event {
  headers: Record<string, string>;
  requestContext: Record<string, unknown>;
}

describe('an HTTP API deployed by cdkd answers HTTP', () => {
  it("lists its $default stage at the URL the CDK's output names", async () => {
    const { endpoints } = (await (await fetch(`${sandbox.current.url}/_sandbox/endpoints`)).json()) as {
      endpoints: Array<Record<string, string>>;
    };
    expect(output).toContain(`.ApiUrl = https://${apiId}.execute-api.us-east-1.amazonaws.com/\n`);
    expect(endpoints).toContainEqual(
      expect.objectContaining({
        kind: 'http-api',
        id: apiId,
        name: '$default',
        awsUrl: `https://${apiId}.execute-api.us-east-1.amazonaws.com/`,
        hostStyleUrl: `http://${apiId}.execute-api.localhost:${sandbox.current.port}/`,
      }),
    );
  });

  it('hands a Lambda route the 2.0 event with its path parameters, and maps cookies and headers back', async () => {
    const response = await fetch(`${base()}/things/42?x=1&x=2`, {
      headers: { cookie: 'session=abc; theme=dark', 'X-Thing': 'v' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['c=1', 'd=2']);
    expect(response.headers.get('x-v')).toBe('2');
    expect(response.headers.get('apigw-requestid')).toMatch(/=$/);
    const event = (await response.json()) as Event;
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /things/{id}',
      rawPath: '/things/42',
      rawQueryString: 'x=1&x=2',
      cookies: ['session=abc', 'theme=dark'],
      queryStringParameters: { x: '1,2' },
      pathParameters: { id: '42' },
      isBase64Encoded: false,
      requestContext: {
        apiId,
        accountId: '000000000000',
        routeKey: 'GET /things/{id}',
        stage: '$default',
        http: { method: 'GET', path: '/things/42', sourceIp: '127.0.0.1' },
      },
    });
    expect(event.headers['x-thing']).toBe('v');
    expect(event.headers.cookie).toBeUndefined();
  });

  it('base64-encodes a binary body, and passes a JSON one as text', async () => {
    const binary = (await (
      await fetch(`${base()}/things/1`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array([0, 1, 2]),
      })
    ).json()) as Record<string, unknown>;
    expect(binary).toMatchObject({ isBase64Encoded: true, body: 'AAEC' });
    const text = (await (
      await fetch(`${base()}/things/1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      })
    ).json()) as Record<string, unknown>;
    expect(text).toMatchObject({ isBase64Encoded: false, body: '{"a":1}' });
  });

  it('takes an answer without statusCode as a 200 JSON body', async () => {
    const response = await fetch(`${base()}/plain`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ hello: 'world', auth: null });
  });

  it('hands a route with payload format 1.0 its 1.0 event', async () => {
    const event = (await (await fetch(`${base()}/v1/a/b`, { method: 'DELETE' })).json()) as Record<
      string,
      unknown
    >;
    expect(event).toMatchObject({
      version: '1.0',
      resource: '/v1/{proxy+}',
      path: '/v1/a/b',
      httpMethod: 'DELETE',
      pathParameters: { proxy: 'a/b' },
    });
  });

  it('runs the Lambda authorizer with simple responses: 401 without the header, 403 when refused, its context when allowed', async () => {
    expect((await fetch(`${base()}/secure`)).status).toBe(401);
    const refused = await fetch(`${base()}/secure`, { headers: { authorization: 'nope' } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: 'Forbidden' });
    const allowed = await fetch(`${base()}/secure`, { headers: { authorization: 'let-me-in' } });
    expect(allowed.status).toBe(201);
    expect(((await allowed.json()) as Event).requestContext).toMatchObject({
      authorizer: { lambda: { who: 'bob', level: 2 } },
    });
  });

  it("checks a JWT against the issuer's keys, its audience, expiry and the route's scopes", async () => {
    const call = (bearer?: string) =>
      fetch(`${base()}/jwt`, bearer === undefined ? {} : { headers: { authorization: `Bearer ${bearer}` } });
    const good = await call(token({ scope: 'read write' }));
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({
      auth: { jwt: { claims: { sub: 'user-1', aud: AUDIENCE, iss: issuer }, scopes: ['read', 'write'] } },
    });
    expect((await call()).status).toBe(401);
    const expired = await call(token({ scope: 'read', exp: Math.floor(Date.now() / 1000) - 60 }));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('the token has expired');
    expect((await call(token({ scope: 'read', aud: 'someone-else' }))).status).toBe(401);
    expect((await call(token({ scope: 'read' }, stranger.privateKey))).status).toBe(401);
    const unscoped = await call(token({ scope: 'write' }));
    expect(unscoped.status).toBe(403);
    expect(await unscoped.json()).toEqual({ message: 'Forbidden' });
  });

  it("answers CORS preflight from the API's CorsConfiguration, and puts its headers on answers", async () => {
    const preflight = (origin: string) =>
      fetch(`${base()}/things/1`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
    const allowed = await preflight('https://app.example');
    expect(allowed.status).toBe(204);
    expect(
      Object.fromEntries([...allowed.headers].filter(([name]) => name.startsWith('access-control-'))),
    ).toEqual({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'authorization',
      'access-control-max-age': '600',
    });
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const answer = await fetch(`${base()}/things/1`, { headers: { origin: 'https://app.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('answers host style and 404 Not Found for a route it does not have', async () => {
    const hosted = await requestWithHost(sandbox.current.url, `${apiId}.execute-api.localhost`, '/things/7');
    expect(hosted.status).toBe(201);
    expect((JSON.parse(hosted.body) as Event).requestContext).toMatchObject({
      domainName: `${apiId}.execute-api.localhost`,
    });
    const missing = await fetch(`${base()}/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not Found' });
  });
});

describe('Lambda function URLs deployed by cdkd answer HTTP', () => {
  const urlId = (url: string) => new URL(url).hostname.split('.')[0]!;

  it('a URL with auth NONE runs its function with the 2.0 event, host style and path style', async () => {
    const id = urlId(urls.OpenUrl!);
    const hosted = await requestWithHost(
      sandbox.current.url,
      new URL(urls.OpenUrl!).hostname,
      '/some/path?q=1',
    );
    expect(hosted.status).toBe(201);
    expect(JSON.parse(hosted.body)).toMatchObject({
      rawPath: '/some/path',
      queryStringParameters: { q: '1' },
      requestContext: {
        accountId: 'anonymous',
        apiId: id,
        domainPrefix: id,
        routeKey: '$default',
        stage: '$default',
      },
    });
    const pathStyle = await fetch(`${sandbox.current.url}/_lambda-url/${id}/other`);
    expect(pathStyle.status).toBe(201);
    expect(await pathStyle.json()).toMatchObject({
      rawPath: '/other',
      requestContext: { domainName: `${id}.lambda-url.us-east-1.on.aws` },
    });
  });

  it('an id no function URL has gets a 404 naming it', async () => {
    const response = await fetch(`${sandbox.current.url}/_lambda-url/nosuchurl/`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      Message: "No function URL with id 'nosuchurl' is deployed on this sandbox.",
    });
  });

  it('a URL with AWS_IAM refuses an unsigned request and passes the signer to the function', async () => {
    const id = urlId(urls.IamUrl!);
    const unsigned = await fetch(`${sandbox.current.url}/_lambda-url/${id}/`);
    expect(unsigned.status).toBe(403);
    const signed = await fetch(`${sandbox.current.url}/_lambda-url/${id}/`, {
      headers: {
        'x-amz-date': '20260101T000000Z',
        authorization: `AWS4-HMAC-SHA256 Credential=111122223333/20260101/us-east-1/lambda/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
      },
    });
    expect(signed.status).toBe(200);
    expect(await signed.json()).toMatchObject({
      hello: 'world',
      auth: {
        iam: {
          accessKey: '111122223333',
          accountId: '111122223333',
          userArn: 'arn:aws:iam::111122223333:root',
        },
      },
    });
  });
});

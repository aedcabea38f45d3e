import { describe, expect, it } from 'vitest';
import { preflightResponse, withCorsHeaders, type CorsConfig } from '../../src/http-events/cors.js';
import { ANONYMOUS, v1Event, v1Response } from '../../src/http-events/payload-v1.js';
import { v2Event, v2Response } from '../../src/http-events/payload-v2.js';
import { isTextContentType, matchesMediaTypes, requestTime } from '../../src/http-events/request-parts.js';
import { checkSigV4Shape } from '../../src/sandbox/http-events/sigv4-shape.js';
import type { IngressRequest } from '../../src/sandbox/ingress.js';

function request(
  overrides: Partial<IngressRequest> & { list?: Array<[string, string]> } = {},
): IngressRequest {
  const list = overrides.list ?? [['Host', 'abc.execute-api.localhost:4566']];
  const headers: Record<string, string> = {};
  for (const [name, value] of list) {
    const lower = name.toLowerCase();
    headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}, ${value}`;
  }
  return {
    method: 'GET',
    path: '/',
    rawQuery: '',
    headers,
    headerList: list,
    body: Buffer.alloc(0),
    host: 'abc.execute-api.localhost',
    sourceIp: '127.0.0.1',
    signedFor: undefined,
    ...overrides,
  };
}

const failure = () => ({ status: 599, headers: {}, body: 'failed' });
const EPOCH = Date.UTC(2020, 2, 12, 19, 3, 58, 390);

describe('payload format 2.0', () => {
  const target = {
    accountId: '123456789012',
    apiId: 'abc',
    domainName: 'abc.execute-api.us-east-1.amazonaws.com',
    domainPrefix: 'abc',
    routeKey: 'GET /pets/{id}',
    stage: '$default',
    rawPath: '/pets/7',
    pathParameters: { id: '7' },
    requestId: 'id=',
    epochMs: EPOCH,
  };

  it('lower-cases headers, joins repeats with commas, moves cookies out, joins repeated query values', () => {
    const event = v2Event(
      request({
        rawQuery: 'a=1&a=2&b=x%20y',
        list: [
          ['X-Thing', 'one'],
          ['x-thing', 'two'],
          ['Cookie', 'c1=v1; c2=v2'],
          ['User-Agent', 'tests'],
        ],
      }),
      target,
    );
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /pets/{id}',
      rawPath: '/pets/7',
      rawQueryString: 'a=1&a=2&b=x%20y',
      cookies: ['c1=v1', 'c2=v2'],
      queryStringParameters: { a: '1,2', b: 'x y' },
      pathParameters: { id: '7' },
      isBase64Encoded: false,
      requestContext: {
        accountId: '123456789012',
        apiId: 'abc',
        http: {
          method: 'GET',
          path: '/pets/7',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'tests',
        },
        routeKey: 'GET /pets/{id}',
        stage: '$default',
        time: '12/Mar/2020:19:03:58 +0000',
        timeEpoch: EPOCH,
      },
    });
    const headers = event.headers as Record<string, string>;
    expect(headers['x-thing']).toBe('one,two');
    expect(headers.cookie).toBeUndefined();
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(event).not.toHaveProperty('body');
    expect(event).not.toHaveProperty('stageVariables');
  });

  const bodies: Array<[contentType: string | undefined, base64: boolean]> = [
    ['application/json', false],
    ['application/json; charset=utf-8', false],
    ['text/plain', false],
    ['application/xml', false],
    ['application/javascript', false],
    ['application/x-www-form-urlencoded', true],
    ['application/octet-stream', true],
    [undefined, true],
  ];
  it.each(bodies)('a body of type %s is base64-encoded: %s', (contentType, base64) => {
    expect(isTextContentType(contentType)).toBe(!base64);
    const body = Buffer.from('a=1');
    const event = v2Event(
      request({ body, list: contentType ? [['Content-Type', contentType]] : [] }),
      target,
    );
    expect(event.isBase64Encoded).toBe(base64);
    expect(event.body).toBe(base64 ? body.toString('base64') : 'a=1');
  });

  const results: Array<
    [name: string, payload: unknown, functionError: boolean, expected: Record<string, unknown>]
  > = [
    [
      'a JSON object without statusCode',
      { hello: 'world' },
      false,
      { status: 200, body: '{"hello":"world"}', type: 'application/json' },
    ],
    ['a string', 'Hello!', false, { status: 200, body: '"Hello!"', type: 'application/json' }],
    [
      'a full response',
      { statusCode: 201, headers: { 'X-A': 'b', 'Content-Type': 'text/plain' }, body: 'made' },
      false,
      { status: 201, body: 'made', type: 'text/plain', 'x-a': 'b' },
    ],
    [
      'a base64 body',
      { statusCode: 200, isBase64Encoded: true, body: Buffer.from([1, 2, 3]).toString('base64') },
      false,
      { status: 200, bytes: [1, 2, 3] },
    ],
    ['a status that is not a number', { statusCode: 'teapot' }, false, { status: 599 }],
    ['a function error', { errorMessage: 'boom' }, true, { status: 599 }],
  ];
  it.each(results)('maps %s', (_name, payload, functionError, expected) => {
    const response = v2Response(
      { payload: JSON.stringify(payload), ...(functionError ? { functionError: 'Unhandled' } : {}) },
      failure,
    );
    expect(response.status).toBe(expected.status);
    if (expected.body !== undefined) expect(String(response.body)).toBe(expected.body);
    if (expected.type !== undefined) expect(response.headers?.['content-type']).toBe(expected.type);
    if (expected['x-a'] !== undefined) expect(response.headers?.['x-a']).toBe(expected['x-a']);
    if (expected.bytes !== undefined) expect([...(response.body as Buffer)]).toEqual(expected.bytes);
  });

  it('sends each cookie of the answer as its own set-cookie header', () => {
    const response = v2Response(
      { payload: JSON.stringify({ statusCode: 200, cookies: ['a=1', 'b=2'] }) },
      failure,
    );
    expect(response.headerLists).toEqual({ 'set-cookie': ['a=1', 'b=2'] });
  });
});

describe('payload format 1.0', () => {
  const target = {
    accountId: '123456789012',
    apiId: 'abc',
    domainName: 'abc.execute-api.us-east-1.amazonaws.com',
    domainPrefix: 'abc',
    stage: 'prod',
    resource: '/items/{id}',
    path: '/items/7',
    stagePath: '/prod/items/7',
    resourceId: 'r1',
    pathParameters: { id: '7' },
    stageVariables: {},
    identity: ANONYMOUS,
    binaryBody: false,
    requestId: 'uuid',
    extendedRequestId: 'ext=',
    epochMs: EPOCH,
  };

  it("keeps the client's header casing, the last value single and all of them multi-valued; empty maps are null", () => {
    const event = v1Event(
      request({
        rawQuery: 'a=1&a=2',
        list: [
          ['X-Thing', 'one'],
          ['X-Thing', 'two'],
        ],
      }),
      target,
    );
    expect(event).toMatchObject({
      resource: '/items/{id}',
      path: '/items/7',
      httpMethod: 'GET',
      queryStringParameters: { a: '2' },
      multiValueQueryStringParameters: { a: ['1', '2'] },
      pathParameters: { id: '7' },
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {
        resourceId: 'r1',
        resourcePath: '/items/{id}',
        path: '/prod/items/7',
        stage: 'prod',
        requestTime: '12/Mar/2020:19:03:58 +0000',
        identity: { sourceIp: '127.0.0.1', accessKey: null },
      },
    });
    expect((event.headers as Record<string, string>)['X-Thing']).toBe('two');
    expect((event.multiValueHeaders as Record<string, string[]>)['X-Thing']).toEqual(['one', 'two']);
    expect(event).not.toHaveProperty('version');
  });

  it('base64-encodes a body whose type is one of the binary media types', () => {
    const event = v1Event(request({ body: Buffer.from([0, 1]) }), { ...target, binaryBody: true });
    expect(event).toMatchObject({ body: 'AAE=', isBase64Encoded: true });
  });

  const binary = { binaryMediaTypes: ['image/png'], accept: 'image/png' };
  const results: Array<
    [name: string, payload: unknown, support: typeof binary, expected: Record<string, unknown>]
  > = [
    [
      'headers and multi-value headers, the multi-value ones winning',
      {
        statusCode: 200,
        headers: { 'X-A': '1', 'X-B': '1' },
        multiValueHeaders: { 'X-B': ['2', '3'] },
        body: 'ok',
      },
      binary,
      { status: 200, single: { 'x-a': '1' }, lists: { 'x-b': ['2', '3'] } },
    ],
    [
      'a base64 body the client accepts as binary',
      { statusCode: 200, isBase64Encoded: true, body: 'AAE=', headers: { 'content-type': 'image/png' } },
      binary,
      { status: 200, bytes: [0, 1] },
    ],
    [
      'a base64 body of a binary type the client did not ask for stays text',
      { statusCode: 200, isBase64Encoded: true, body: 'AAE=', headers: { 'content-type': 'image/png' } },
      { binaryMediaTypes: ['image/png'], accept: '*/*' },
      { status: 200, text: 'AAE=' },
    ],
    [
      'a base64 body without binary media types stays text',
      { statusCode: 200, isBase64Encoded: true, body: 'AAE=' },
      { binaryMediaTypes: [], accept: 'image/png' },
      { status: 200, text: 'AAE=' },
    ],
    ['no statusCode', { body: 'x' }, binary, { status: 599 }],
    ['not an object', 'text', binary, { status: 599 }],
  ];
  it.each(results)('maps %s', (_name, payload, support, expected) => {
    const response = v1Response({ payload: JSON.stringify(payload) }, support, failure);
    expect(response.status).toBe(expected.status);
    if (expected.single) expect(response.headers).toMatchObject(expected.single as object);
    if (expected.lists) expect(response.headerLists).toEqual(expected.lists);
    if (expected.bytes) expect([...(response.body as Buffer)]).toEqual(expected.bytes);
    if (expected.text) expect(response.body).toBe(expected.text);
  });

  const mediaTypes: Array<[type: string, patterns: string[], matches: boolean]> = [
    ['image/png', ['image/png'], true],
    ['image/png; q=1', ['image/*'], true],
    ['image/png', ['*/*'], true],
    ['image/png', ['image~1png'], true],
    ['text/html', ['image/*'], false],
    ['', ['*/*'], false],
  ];
  it.each(mediaTypes)('%s against %j: %s', (type, patterns, matches) => {
    expect(matchesMediaTypes(type, patterns)).toBe(matches);
  });
});

describe('CORS as HTTP APIs and function URLs configure it', () => {
  const config: CorsConfig = {
    AllowOrigins: ['https://app.example', 'https://*.trusted.example'],
    AllowMethods: ['GET', 'POST'],
    AllowHeaders: ['authorization'],
    ExposeHeaders: ['x-total'],
    MaxAge: 60,
  };
  const preflight = (origin: string, method: string, headers?: string) =>
    request({
      method: 'OPTIONS',
      list: [
        ['Origin', origin],
        ['Access-Control-Request-Method', method],
        ...(headers ? ([['Access-Control-Request-Headers', headers]] as Array<[string, string]>) : []),
      ],
    });
  const cases: Array<
    [name: string, origin: string, method: string, headers: string | undefined, allowed: string | undefined]
  > = [
    ['an allowed origin and method', 'https://app.example', 'POST', undefined, 'https://app.example'],
    [
      'a wildcard subdomain',
      'https://a.trusted.example',
      'GET',
      'authorization',
      'https://a.trusted.example',
    ],
    ['another origin', 'https://evil.example', 'GET', undefined, undefined],
    ['a method not allowed', 'https://app.example', 'DELETE', undefined, undefined],
    ['a header not allowed', 'https://app.example', 'GET', 'x-secret', undefined],
  ];
  it.each(cases)('preflight: %s', (_name, origin, method, headers, allowed) => {
    const response = preflightResponse(config, preflight(origin, method, headers));
    expect(response.status).toBe(204);
    expect(response.headers?.['access-control-allow-origin']).toBe(allowed);
    if (allowed) {
      expect(response.headers?.['access-control-allow-methods']).toBe('GET,POST');
      expect(response.headers?.['access-control-max-age']).toBe('60');
    }
  });

  it("replaces the backend's CORS headers on an answer to an allowed origin", () => {
    const response = withCorsHeaders(config, request({ list: [['Origin', 'https://app.example']] }), {
      status: 200,
      headers: { 'access-control-allow-origin': '*', 'x-other': '1' },
    });
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      'access-control-expose-headers': 'x-total',
      'x-other': '1',
    });
  });

  it('answers * for any origin when every origin is allowed and credentials are not', () => {
    const response = preflightResponse(
      { AllowOrigins: ['*'], AllowMethods: ['*'] },
      preflight('https://x.example', 'PUT'),
    );
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'PUT',
    });
  });
});

describe('IAM authorization: the shape of a SigV4 signature', () => {
  const signature = 'a'.repeat(64);
  const header = (scope: string) =>
    `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/us-east-1/${scope}/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`;
  const cases: Array<
    [name: string, list: Array<[string, string]>, query: string, kind: string, message?: string]
  > = [
    [
      'a signed request',
      [
        ['Authorization', header('execute-api')],
        ['X-Amz-Date', '20240101T000000Z'],
      ],
      '',
      'signed',
    ],
    ['no signature', [], '', 'missing'],
    [
      'a signature for another service',
      [
        ['Authorization', header('lambda')],
        ['X-Amz-Date', '20240101T000000Z'],
      ],
      '',
      'malformed',
      "Credential should be scoped to correct service: 'execute-api'.",
    ],
    [
      'no date',
      [['Authorization', header('execute-api')]],
      '',
      'malformed',
      "requires existence of either a 'X-Amz-Date' or a 'Date' header",
    ],
    [
      'no signature parameter',
      [
        [
          'Authorization',
          'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/us-east-1/execute-api/aws4_request',
        ],
        ['X-Amz-Date', 'x'],
      ],
      '',
      'malformed',
      "requires 'Signature' parameter",
    ],
    [
      'a presigned URL',
      [],
      `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20240101%2Fus-east-1%2Fexecute-api%2Faws4_request&X-Amz-Date=20240101T000000Z&X-Amz-SignedHeaders=host&X-Amz-Signature=${signature}`,
      'signed',
    ],
  ];
  it.each(cases)('%s', (_name, list, query, kind, message) => {
    const outcome = checkSigV4Shape(request({ list, rawQuery: query }), 'execute-api', '000000000000');
    expect(outcome.kind).toBe(kind);
    if (message) expect(outcome.kind === 'malformed' && outcome.message).toContain(message);
  });

  it('names the account a 12-digit access key selects', () => {
    const outcome = checkSigV4Shape(
      request({
        list: [
          ['Authorization', header('execute-api').replace('AKIDEXAMPLE', '111122223333')],
          ['X-Amz-Date', '20240101T000000Z'],
        ],
      }),
      'execute-api',
      '000000000000',
    );
    expect(outcome).toEqual({
      kind: 'signed',
      caller: {
        accessKeyId: '111122223333',
        accountId: '111122223333',
        userArn: 'arn:aws:iam::111122223333:root',
      },
    });
  });
});

it('writes the request time as API Gateway does', () => {
  expect(requestTime(Date.UTC(2024, 0, 5, 3, 4, 5))).toBe('05/Jan/2024:03:04:05 +0000');
});

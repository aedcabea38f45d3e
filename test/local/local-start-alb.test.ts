import { Stack } from 'aws-cdk-lib';
import { Vpc } from 'aws-cdk-lib/aws-ec2';
import {
  ApplicationLoadBalancer,
  ListenerAction,
  ListenerCondition,
} from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { LambdaTarget } from 'aws-cdk-lib/aws-elasticloadbalancingv2-targets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../src/http-events/types.js';
import { matches } from '../../src/local/alb/serve-alb.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { startCli } from '../helpers/cli.js';

// `cdkd local start-alb` on a real aws-cdk-lib app: an internet-facing ALB whose listener
// forwards by path and header to Lambda targets (one with multi-value headers) and answers
// everything else with a fixed response.
const ECHO = (name: string) =>
  `exports.handler = async (event) => ({ statusCode: 200, statusDescription: '200 OK', isBase64Encoded: false,
    headers: { 'content-type': 'application/json', 'x-fn': '${name}' },
    multiValueHeaders: { 'content-type': ['application/json'], 'x-fn': ['${name}', 'again'] },
    body: JSON.stringify({ fn: '${name}', path: event.path, method: event.httpMethod,
      query: event.queryStringParameters || event.multiValueQueryStringParameters,
      header: (event.headers || event.multiValueHeaders)['x-team'], body: event.body, base64: event.isBase64Encoded }) });`;

let server: ReturnType<typeof startCli>;
let url: string;

beforeAll(async () => {
  const app = synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'Lb');
    const vpc = new Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 0 });
    const alb = new ApplicationLoadBalancer(stack, 'Alb', { vpc, internetFacing: true });
    const listener = alb.addListener('Http', {
      port: 80,
      defaultAction: ListenerAction.fixedResponse(404, {
        contentType: 'text/plain',
        messageBody: 'no route',
      }),
    });
    listener.addTargets('Api', {
      priority: 10,
      conditions: [ListenerCondition.pathPatterns(['/api/*'])],
      targets: [new LambdaTarget(inlineFunction(stack, 'ApiFn', ECHO('api')))],
    });
    const team = listener.addTargets('Team', {
      priority: 5,
      conditions: [ListenerCondition.httpHeader('X-Team', ['blue'])],
      targets: [new LambdaTarget(inlineFunction(stack, 'TeamFn', ECHO('team')))],
    });
    team.setAttribute('lambda.multi_value_headers.enabled', 'true');
  });
  server = startCli(['local', 'start-alb', '-a', app, '--port', '0', '--no-deployed'], 'Serving');
  await Promise.race([
    server.creating,
    server.done.then((code) => {
      throw new Error(`start-alb exited with ${code}: ${server.stderr()}`);
    }),
  ]);
  url = /ALB listener [^\n]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())![1]!;
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.done;
});

describe('cdkd local start-alb', () => {
  it('forwards a path-pattern match to its Lambda target with the ALB event', async () => {
    const response = await fetch(`${url}/api/items?a=1%202&a=3`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-fn')).toBe('api');
    expect(await response.json()).toEqual({
      fn: 'api',
      path: '/api/items',
      method: 'POST',
      // An ALB passes the query string's values as sent (still encoded), the last of a repeat.
      query: { a: '3' },
      body: 'hello',
      base64: false,
    });
  });

  it('takes the rule of lower priority first, with multi-value headers where the target group enables them', async () => {
    const response = await fetch(`${url}/api/x?k=v`, { headers: { 'x-team': 'blue' } });
    expect(response.headers.get('x-fn')).toBe('team, again');
    expect(await response.json()).toMatchObject({ fn: 'team', query: { k: ['v'] }, header: ['blue'] });
  });

  it('answers anything else with the default fixed response', async () => {
    const response = await fetch(`${url}/elsewhere`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('no route');
  });
});

describe('ALB rule conditions', () => {
  const request = (path: string, headers: Record<string, string> = {}, rawQuery = ''): HttpRequest => ({
    method: 'GET',
    path,
    rawQuery,
    headers,
    headerList: Object.entries(headers),
    body: Buffer.alloc(0),
    sourceIp: '127.0.0.1',
  });
  it.each([
    [{ field: 'path-pattern', values: ['/api/*'] }, request('/api/a/b'), true],
    [{ field: 'path-pattern', values: ['/api/*'] }, request('/API/a'), false],
    [{ field: 'path-pattern', values: ['/img/?.png'] }, request('/img/a.png'), true],
    [
      { field: 'host-header', values: ['*.example.com'] },
      request('/', { host: 'Shop.Example.com:8080' }),
      true,
    ],
    [{ field: 'host-header', values: ['*.example.com'] }, request('/', { host: 'example.org' }), false],
    [{ field: 'http-request-method', values: ['POST'] }, request('/'), false],
    [{ field: 'http-header', name: 'X-Team', values: ['bl*'] }, request('/', { 'x-team': 'blue' }), true],
    [{ field: 'query-string', values: [], pairs: [{ key: 'v', value: '2' }] }, request('/', {}, 'v=2'), true],
    [{ field: 'query-string', values: [], pairs: [{ value: '2' }] }, request('/', {}, 'any=2'), true],
    [
      { field: 'query-string', values: [], pairs: [{ key: 'v', value: '2' }] },
      request('/', {}, 'v=3'),
      false,
    ],
  ])('%j on %j → %s', (condition, req, expected) => {
    expect(matches(condition, req)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../src/http-events/authorizers/policy.js';
import { matchMethod, resourcePaths } from '../../src/http-events/rest/rest-routes.js';
import {
  compareSpecificity,
  matchTemplate,
  parseRouteKey,
  selectRoute,
} from '../../src/http-events/routing.js';

describe('a path template against a request path', () => {
  const cases: Array<[template: string, path: string, expected: Record<string, string> | undefined]> = [
    ['/', '/', {}],
    ['/items', '/items', {}],
    ['/items', '/items/', {}],
    ['/items', '/other', undefined],
    ['/items/{id}', '/items/42', { id: '42' }],
    ['/items/{id}', '/items/a%20b', { id: 'a b' }],
    ['/items/{id}', '/items', undefined],
    ['/items/{id}', '/items/1/2', undefined],
    ['/items/{proxy+}', '/items/a/b/c', { proxy: 'a/b/c' }],
    ['/items/{proxy+}', '/items', undefined],
    ['/{proxy+}', '/x', { proxy: 'x' }],
    ['/{proxy+}', '/', undefined],
    ['/a b', '/a%20b', {}],
  ];
  it.each(cases)('%s ~ %s', (template, path, expected) => {
    expect(
      matchTemplate(
        template,
        path.split('/').filter((part) => part !== ''),
      ),
    ).toEqual(expected);
  });
});

describe('which of two templates is more specific', () => {
  const cases: Array<[a: string, b: string, sign: -1 | 0 | 1]> = [
    ['/pets/dog', '/pets/{name}', -1],
    ['/pets/{name}', '/pets/{proxy+}', -1],
    ['/pets/dog/{id}', '/pets/{proxy+}', -1],
    ['/{proxy+}', '/pets/{proxy+}', 1],
    ['/pets/{a}', '/pets/{b}', 0],
    ['/{a}/dog', '/pets/{b}', 1],
  ];
  it.each(cases)('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareSpecificity(a, b))).toBe(sign);
  });
});

describe('the route an HTTP API request takes', () => {
  const keys = [
    'GET /pets',
    'ANY /pets',
    'POST /pets/{id}',
    'GET /pets/dog',
    'GET /pets/{id}',
    'ANY /pets/{proxy+}',
    'GET /{proxy+}',
    '$default',
  ];
  const routes = keys.map((key) => ({ routeKey: parseRouteKey(key) }));
  const cases: Array<[method: string, path: string, key: string, parameters: Record<string, string>]> = [
    ['GET', '/pets', 'GET /pets', {}],
    ['DELETE', '/pets', 'ANY /pets', {}],
    ['GET', '/pets/dog', 'GET /pets/dog', {}],
    ['GET', '/pets/7', 'GET /pets/{id}', { id: '7' }],
    ['POST', '/pets/7', 'POST /pets/{id}', { id: '7' }],
    ['PUT', '/pets/7', 'ANY /pets/{proxy+}', { proxy: '7' }],
    ['GET', '/pets/7/toys', 'ANY /pets/{proxy+}', { proxy: '7/toys' }],
    ['GET', '/owners/1', 'GET /{proxy+}', { proxy: 'owners/1' }],
    ['POST', '/owners/1', '$default', {}],
  ];
  it.each(cases)('%s %s → %s', (method, path, key, parameters) => {
    const selected = selectRoute(routes, method, path);
    expect(selected?.item.routeKey.key).toBe(key);
    expect(selected?.pathParameters).toEqual(parameters);
  });

  it('answers nothing when no route matches and there is no $default', () => {
    expect(selectRoute([{ routeKey: parseRouteKey('GET /pets') }], 'GET', '/owners')).toBeUndefined();
  });
});

describe('the method a REST API request reaches', () => {
  const resources = [
    { ResourceId: 'items1', ParentId: 'root01', PathPart: 'items' },
    { ResourceId: 'proxy1', ParentId: 'items1', PathPart: '{proxy+}' },
    { ResourceId: 'one001', ParentId: 'items1', PathPart: '{id}' },
  ];
  const methods = [
    { ResourceId: 'root01', HttpMethod: 'GET', name: 'root' },
    { ResourceId: 'items1', HttpMethod: 'GET', name: 'list' },
    { ResourceId: 'one001', HttpMethod: 'ANY', name: 'one' },
    { ResourceId: 'one001', HttpMethod: 'DELETE', name: 'delete-one' },
    { ResourceId: 'proxy1', HttpMethod: 'ANY', name: 'proxy' },
  ];

  it('builds every resource path from its parents', () => {
    expect(Object.fromEntries(resourcePaths('root01', resources))).toEqual({
      root01: '/',
      items1: '/items',
      proxy1: '/items/{proxy+}',
      one001: '/items/{id}',
    });
  });

  const cases: Array<
    [method: string, path: string, name: string | undefined, parameters?: Record<string, string>]
  > = [
    ['GET', '/', 'root'],
    ['GET', '/items', 'list'],
    ['POST', '/items', undefined],
    ['GET', '/items/7', 'one', { id: '7' }],
    ['DELETE', '/items/7', 'delete-one', { id: '7' }],
    ['GET', '/items/7/parts', 'proxy', { proxy: '7/parts' }],
    ['GET', '/nothing', undefined],
  ];
  it.each(cases)('%s %s → %s', (method, path, name, parameters) => {
    const matched = matchMethod('root01', resources, methods, method, path);
    expect(matched?.method.name).toBe(name);
    if (parameters) expect(matched?.pathParameters).toEqual(parameters);
  });
});

describe("a Lambda authorizer's policy against the method ARN", () => {
  const arn = 'arn:aws:execute-api:us-east-1:123456789012:abc123/prod/GET/items/7';
  const allow = (resource: unknown, action: unknown = 'execute-api:Invoke') => ({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: action, Resource: resource }],
  });
  const cases: Array<[name: string, document: unknown, decision: string]> = [
    ['an Allow for the exact ARN', allow(arn), 'allow'],
    [
      'an Allow for every method and path of the stage',
      allow('arn:aws:execute-api:us-east-1:123456789012:abc123/prod/*'),
      'allow',
    ],
    ['an Allow in a list of resources', allow(['arn:x', arn]), 'allow'],
    [
      'an Allow with ? for one character',
      allow('arn:aws:execute-api:us-east-1:123456789012:abc123/prod/GET/items/?'),
      'allow',
    ],
    ['an Allow for every action', allow(arn, '*'), 'allow'],
    [
      'an Allow for another path',
      allow('arn:aws:execute-api:us-east-1:123456789012:abc123/prod/GET/other'),
      'implicit-deny',
    ],
    ['an Allow for another action', allow(arn, 'execute-api:ManageConnections'), 'implicit-deny'],
    [
      'a Deny beside an Allow',
      {
        Statement: [
          { Effect: 'Allow', Action: '*', Resource: '*' },
          { Effect: 'Deny', Action: 'execute-api:Invoke', Resource: arn },
        ],
      },
      'deny',
    ],
    [
      'a single statement object',
      { Statement: { Effect: 'Allow', Action: 'execute-api:Invoke', Resource: arn } },
      'allow',
    ],
    ['no statements', { Statement: [] }, 'implicit-deny'],
  ];
  it.each(cases)('%s', (_name, document, decision) => {
    expect(evaluatePolicy(document, arn)).toBe(decision);
  });
});

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import {
  Distribution,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { runCli, startCli } from '../helpers/cli.js';

// `cdkd local start-cloudfront` on a real aws-cdk-lib app: a distribution whose default
// behaviour is an S3 bucket filled by a BucketDeployment of a local directory, with an SPA's
// error responses, a `/api/*` behaviour to a Lambda function URL, CloudFront Functions on the
// viewer side, and a custom origin on another domain.
const API = `exports.handler = async (event) => ({ statusCode: 200, headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ version: event.version, routeKey: event.routeKey, rawPath: event.rawPath,
    query: event.queryStringParameters, method: event.requestContext.http.method, body: event.body }) });`;

let server: ReturnType<typeof startCli>;
let url: string;
let site: string;
let app: string;

beforeAll(async () => {
  site = tempDir();
  writeFileSync(join(site, 'index.html'), '<h1>home</h1>');
  mkdirSync(join(site, 'css'));
  writeFileSync(join(site, 'css', 'app.css'), 'body{}');
  app = synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'Web');
    const bucket = new Bucket(stack, 'Site');
    const api = inlineFunction(stack, 'ApiFn', API);
    const apiUrl = api.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
    const rewrite = new CfFunction(stack, 'Rewrite', {
      code: FunctionCode.fromInline(
        `function handler(event) {
          var request = event.request;
          if (request.uri === '/old') return { statusCode: 301, statusDescription: 'Moved', headers: { location: { value: '/' } } };
          if (request.uri === '/home') request.uri = '/index.html';
          return request;
        }`,
      ),
    });
    const stamp = new CfFunction(stack, 'Stamp', {
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(
        `async function handler(event) {
          event.response.headers['x-stamp'] = { value: 'cf-' + event.response.statusCode };
          return event.response;
        }`,
      ),
    });
    const distribution = new Distribution(stack, 'Cdn', {
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(bucket),
        functionAssociations: [
          { function: rewrite, eventType: FunctionEventType.VIEWER_REQUEST },
          { function: stamp, eventType: FunctionEventType.VIEWER_RESPONSE },
        ],
      },
      additionalBehaviors: {
        '/api/*': { origin: new FunctionUrlOrigin(apiUrl) },
        '/ext/*': { origin: new HttpOrigin('example.com') },
      },
      defaultRootObject: 'index.html',
      errorResponses: [
        { httpStatus: 403, responseHttpStatus: 200, responsePagePath: '/index.html' },
        { httpStatus: 404, responseHttpStatus: 200, responsePagePath: '/index.html' },
      ],
    });
    new BucketDeployment(stack, 'Deploy', {
      sources: [Source.asset(site)],
      destinationBucket: bucket,
      distribution,
    });
  });
  server = startCli(['local', 'start-cloudfront', '-a', app, '--port', '0', '--no-deployed'], 'Serving');
  await Promise.race([
    server.creating,
    server.done.then((code) => {
      throw new Error(`start-cloudfront exited with ${code}: ${server.stderr()}`);
    }),
  ]);
  url = /CloudFront distribution [^\n]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())![1]!;
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.done;
});

describe('cdkd local start-cloudfront', () => {
  it('says where the bucket is served from and why', () => {
    expect(server.stderr()).toMatch(/Bucket Site\w+: served from its BucketDeployment sources \(.*asset\./);
  });

  it('serves the default root object for /, with its content type and the viewer-response function', async () => {
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('x-stamp')).toBe('cf-200');
    expect(await response.text()).toBe('<h1>home</h1>');
  });

  it('serves the deployed directory as keys', async () => {
    const response = await fetch(`${url}/css/app.css`);
    expect(response.headers.get('content-type')).toBe('text/css');
    expect(await response.text()).toBe('body{}');
  });

  it('answers a missing key with the error response page and its status (an SPA fallback)', async () => {
    const response = await fetch(`${url}/missing/route`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<h1>home</h1>');
  });

  it('runs the viewer-request function: a rewritten URI, and a response that ends the request', async () => {
    expect(await (await fetch(`${url}/home`)).text()).toBe('<h1>home</h1>');
    const moved = await fetch(`${url}/old`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/');
  });

  it('runs the function URL origin with the payload 2.0 event', async () => {
    const response = await fetch(`${url}/api/x?q=1`, {
      method: 'POST',
      body: 'hi',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/api/x',
      query: { q: '1' },
      method: 'POST',
      body: 'hi',
    });
  });

  it('answers a custom origin on another domain with 502 naming it', async () => {
    const response = await fetch(`${url}/ext/page`);
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(/custom origin .* \(example\.com\)/);
  });
});

describe('cdkd local start-cloudfront: refusals', () => {
  it("refuses a function origin's relative aws:asset:path escaping the assembly before serving", async () => {
    const copy = tempDir();
    for (const entry of readdirSync(app))
      if (entry.endsWith('.json')) writeFileSync(join(copy, entry), readFileSync(join(app, entry)));
    const template = JSON.parse(readFileSync(join(copy, 'Web.template.json'), 'utf8')) as {
      Resources: Record<
        string,
        { Type: string; Properties: Record<string, unknown>; Metadata?: Record<string, unknown> }
      >;
    };
    const api = Object.entries(template.Resources).find(
      ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.startsWith('ApiFn'),
    )![1];
    api.Properties.Code = { S3Bucket: 'assets', S3Key: 'code.zip' };
    api.Metadata = { ...api.Metadata, 'aws:asset:path': '../../etc' };
    writeFileSync(join(copy, 'Web.template.json'), JSON.stringify(template));
    const result = await runCli(['local', 'start-cloudfront', '-a', copy, '--port', '0', '--no-deployed']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ASSET_PATH_ESCAPES');
    expect(result.stderr).toMatch(/Function Web\/ApiFn\w*: aws:asset:path "\.\.\/\.\.\/etc" resolves to/);
    expect(result.stderr).not.toContain('Serving');
  });
});

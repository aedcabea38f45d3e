import { Duration, Stack } from 'aws-cdk-lib';
import {
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { readAssembly } from '../../src/assembly/index.js';
import { withResponseHeaders } from '../../src/local/cloudfront/response-headers.js';
import { startCloudFront } from '../../src/local/cloudfront/start-cloudfront.js';
import type { LocalServers } from '../../src/local/serve/local-servers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';

// `cdkd local start-cloudfront` applies a behaviour's response headers policy to what the
// viewer gets: custom headers (overriding the origin's or not), security headers as
// CloudFront writes them, headers removed; a managed policy is named as not applied.
function app(managed = false) {
  return readAssembly(
    synthesizeApp((cdk) => {
      const stack = new Stack(cdk, 'Cdn');
      const policy = managed
        ? ResponseHeadersPolicy.SECURITY_HEADERS
        : new ResponseHeadersPolicy(stack, 'Headers', {
            customHeadersBehavior: {
              customHeaders: [
                { header: 'X-Team', value: 'web', override: true },
                { header: 'Content-Type', value: 'text/x-policy', override: false },
              ],
            },
            securityHeadersBehavior: {
              strictTransportSecurity: {
                accessControlMaxAge: Duration.days(1),
                includeSubdomains: true,
                override: true,
              },
              contentTypeOptions: { override: true },
              frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
              referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: false },
            },
            removeHeaders: ['x-amz-meta-secret'],
          });
      new Distribution(stack, 'Dist', {
        defaultBehavior: {
          origin: S3BucketOrigin.withOriginAccessControl(new Bucket(stack, 'Files')),
          responseHeadersPolicy: policy,
        },
      });
    }),
  );
}

let running: LocalServers | undefined;
const messages: string[] = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  messages.length = 0;
});

async function start(assembly: ReturnType<typeof readAssembly>): Promise<string> {
  running = await startCloudFront({
    assembly,
    region: 'us-east-1',
    port: 0,
    onLog: () => undefined,
    onWarning: (message) => messages.push(`warning: ${message}`),
    onInfo: (message) => messages.push(message),
    deployedBucket: async () => ({
      bucketName: 'files',
      read: async () => ({ body: Buffer.from('hello'), contentType: 'text/plain' }),
    }),
  });
  return `http://127.0.0.1:${running.endpoints[0]!.port}`;
}

describe('response headers policies', () => {
  it("adds the policy's custom and security headers to the answer, keeping the origin's where the policy does not override", async () => {
    const response = await fetch(`${await start(app())}/a.txt`);
    expect(await response.text()).toBe('hello');
    expect(response.headers.get('x-team')).toBe('web');
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('strict-transport-security')).toBe('max-age=86400; includeSubDomains');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('names a managed policy as not applied, and serves without it', async () => {
    const response = await fetch(`${await start(app(true))}/a.txt`);
    expect(messages.join('\n')).toMatch(
      /warning: Distribution Dist\w+, behaviour \(default\): response headers policy .* is not one of the stack's/,
    );
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('withResponseHeaders', () => {
  const policy = {
    set: [
      { name: 'x-a', value: 'policy', override: true },
      { name: 'x-b', value: 'policy', override: false },
    ],
    remove: ['x-gone', 'set-cookie'],
  };
  it.each([
    ['overrides the origin when the policy says so', { 'x-a': 'origin' }, 'x-a', 'policy'],
    ["keeps the origin's header when the policy does not override", { 'x-b': 'origin' }, 'x-b', 'origin'],
    ['adds a header the origin did not send', {}, 'x-b', 'policy'],
    ['removes a header the policy removes', { 'x-gone': 'origin' }, 'x-gone', undefined],
    ['matches names whatever their case', { 'X-A': 'origin' }, 'x-a', 'policy'],
  ])('%s', (_case, headers, name, value) => {
    expect(withResponseHeaders({ status: 200, headers }, policy).headers?.[name]).toBe(value);
  });

  it('removes repeated headers too', () => {
    const answer = withResponseHeaders(
      { status: 200, headerLists: { 'set-cookie': ['a=1'], vary: ['x'] } },
      policy,
    );
    expect(answer.headerLists).toEqual({ vary: ['x'] });
  });
});

import { Stack } from 'aws-cdk-lib';
import {
  Distribution,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { readAssembly } from '../../src/assembly/index.js';
import type { LocalServers } from '../../src/local/serve/local-servers.js';
import type { LocalDistribution } from '../../src/local/cloudfront/distribution-model.js';
import { behaviorFor } from '../../src/local/cloudfront/serve-cloudfront.js';
import { startCloudFront } from '../../src/local/cloudfront/start-cloudfront.js';
import { synthesizeApp } from '../helpers/cdk-app.js';

// The parts of `cdkd local start-cloudfront` the CLI test does not reach: a bucket that no
// BucketDeployment fills (the deployed bucket, or a 502 saying why), CloudFront Functions
// that cannot run here or that throw, and the behaviour order.

function app(viewerCode: string) {
  return readAssembly(
    synthesizeApp((cdk) => {
      const stack = new Stack(cdk, 'Cdn');
      const fn = new CfFunction(stack, 'Viewer', { code: FunctionCode.fromInline(viewerCode) });
      new Distribution(stack, 'Dist', {
        defaultBehavior: {
          origin: S3BucketOrigin.withOriginAccessControl(new Bucket(stack, 'Files')),
          functionAssociations: [{ function: fn, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
      });
    }),
  );
}

const PASS = 'function handler(event) { return event.request; }';
let running: LocalServers | undefined;
let messages: string[] = [];

afterEach(async () => {
  await running?.close();
  running = undefined;
  messages = [];
});

async function start(
  assembly: ReturnType<typeof readAssembly>,
  deployedBucket?: Parameters<typeof startCloudFront>[0]['deployedBucket'],
): Promise<string> {
  running = await startCloudFront({
    assembly,
    region: 'us-east-1',
    port: 0,
    onLog: (line) => messages.push(line),
    onWarning: (message) => messages.push(`warning: ${message}`),
    onInfo: (message) => messages.push(message),
    ...(deployedBucket ? { deployedBucket } : {}),
  });
  return `http://127.0.0.1:${running.endpoints[0]!.port}`;
}

describe('an S3 origin no BucketDeployment fills', () => {
  it('is served from the deployed bucket through the reader, and says so', async () => {
    const read: string[] = [];
    const url = await start(app(PASS), async (stack, bucketId) => ({
      bucketName: `deployed-${bucketId.toLowerCase()}`,
      read: async (key) => {
        read.push(`${stack.stackName}:${key}`);
        return key === 'a.txt' ? { body: Buffer.from('from S3'), contentType: 'text/plain' } : 'missing';
      },
    }));
    expect(messages.join('\n')).toMatch(
      /Bucket Files\w+: no BucketDeployment fills it, so it is served from the deployed bucket deployed-files\w+/,
    );
    expect(await (await fetch(`${url}/a.txt`)).text()).toBe('from S3');
    // An origin access control grants GetObject only: a missing key is S3's 403.
    expect((await fetch(`${url}/b.txt`)).status).toBe(403);
    expect(read).toEqual(['Cdn:a.txt', 'Cdn:b.txt']);
  });

  it('is answered 502 with the reason when the stack is not deployed', async () => {
    const url = await start(app(PASS), async () => undefined);
    const response = await fetch(`${url}/a.txt`);
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(
      /no BucketDeployment of the app fills it and the stack is not deployed/,
    );
  });

  it('is answered 502 naming --no-deployed when the deployed bucket is kept out', async () => {
    const url = await start(app(PASS));
    expect(await (await fetch(`${url}/a.txt`)).text()).toMatch(/--no-deployed keeps the deployed bucket out/);
  });
});

describe('CloudFront Functions', () => {
  it('refuses one that imports a module, at start and per request', async () => {
    const url = await start(
      app(`import cf from 'cloudfront';\nasync function handler(event) { return event.request; }`),
      async () => undefined,
    );
    expect(messages.join('\n')).toMatch(
      /CloudFront Function Viewer\w+ \(viewer-request\) cannot run locally: it imports a module/,
    );
    const response = await fetch(`${url}/x`);
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(/cannot run locally: it imports a module/);
  });

  it("answers CloudFront's 503 when the function throws, with the error in the log", async () => {
    const url = await start(
      app(`function handler(event) { throw new Error('boom'); }`),
      async () => undefined,
    );
    expect((await fetch(`${url}/x`)).status).toBe(503);
    expect(messages.join('\n')).toMatch(/Viewer\w+ failed: boom/);
  });

  it('stops a function that runs too long', async () => {
    const url = await start(app(`function handler(event) { while (true) {} }`), async () => undefined);
    expect((await fetch(`${url}/x`)).status).toBe(503);
  });
});

describe('behaviour order', () => {
  const distribution = {
    behaviors: [
      { pathPattern: '/api/v1/*', originId: 'v1', functions: [], edgeLambdas: [] },
      { pathPattern: 'api/*', originId: 'api', functions: [], edgeLambdas: [] },
      { pathPattern: '*.jpg', originId: 'images', functions: [], edgeLambdas: [] },
      { pathPattern: '/file?.txt', originId: 'files', functions: [], edgeLambdas: [] },
      { originId: 'default', functions: [], edgeLambdas: [] },
    ],
  } as unknown as LocalDistribution;
  it.each([
    ['/api/v1/users', 'v1'],
    ['/api/v2/users', 'api'],
    ['/API/v2', 'default'],
    ['/img/a.jpg', 'images'],
    ['/file1.txt', 'files'],
    ['/file12.txt', 'default'],
    ['/', 'default'],
  ])('%s → %s', (path, origin) => {
    expect(behaviorFor(distribution, path).originId).toBe(origin);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { CfnOutput, Stack } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { optSupport } from '../../src/sandbox/services/lambda/runtime/opt-mount.js';

// The CDK's BucketDeployment: a Python handler that runs the AWS CLI from its layer at
// /opt/awscli/aws. It needs python3 with boto3 (the handler imports it) and a machine that
// can mount the layer at /opt; where either is missing the test says so instead of running.
function missing(): string | undefined {
  const opt = optSupport();
  if (!opt.available) return opt.reason;
  try {
    execFileSync('python3', ['-c', 'import boto3'], { stdio: 'ignore', timeout: 20_000 });
  } catch {
    return 'python3 with boto3 is not installed (apt-get install python3-boto3)';
  }
  return undefined;
}
const reason = missing();

const sandbox = useSandbox();

function app(site: string): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, 'SiteE2E');
    const bucket = new Bucket(stack, 'Site');
    new BucketDeployment(stack, 'Deploy', {
      sources: [Source.asset(site)],
      destinationBucket: bucket,
      destinationKeyPrefix: 'web/',
    });
    new CfnOutput(stack, 'BucketName', { value: bucket.bucketName });
  });
}

describe.skipIf(reason !== undefined)(`a BucketDeployment${reason ? ` (not run: ${reason})` : ''}`, () => {
  it("deploys a folder's files into the bucket, and a redeploy replaces them and prunes the removed one", async () => {
    const env = sandboxEnv(sandbox.current.url);
    expect((await runCli(['bootstrap'], { env })).code).toBe(0);
    const site = tempDir();
    writeFileSync(join(site, 'index.html'), '<h1>one</h1>');
    mkdirSync(join(site, 'css'));
    writeFileSync(join(site, 'css', 'site.css'), 'body { color: red }');
    writeFileSync(join(site, 'old.txt'), 'to be pruned');

    const first = await runCli(['deploy', '-a', app(site)], { env });
    expect(first.code, first.stderr).toBe(0);
    const bucket = /\.BucketName = (\S+)/.exec(first.stdout)![1]!;
    const s3 = new S3Client({ endpoint: sandbox.current.url, forcePathStyle: true, region: 'us-east-1' });
    const read = async (key: string) =>
      (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToString();
    const keys = async () =>
      ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? [])
        .map((object) => object.Key)
        .sort();

    expect(await keys()).toEqual(['web/css/site.css', 'web/index.html', 'web/old.txt']);
    expect(await read('web/index.html')).toBe('<h1>one</h1>');
    expect(await read('web/css/site.css')).toBe('body { color: red }');

    writeFileSync(join(site, 'index.html'), '<h1>two</h1>');
    rmSync(join(site, 'old.txt'));
    const second = await runCli(['deploy', '-a', app(site)], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(await keys()).toEqual(['web/css/site.css', 'web/index.html']);
    expect(await read('web/index.html')).toBe('<h1>two</h1>');
  }, 600_000);
});

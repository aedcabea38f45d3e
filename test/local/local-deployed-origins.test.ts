import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SecretValue, Stack } from 'aws-cdk-lib';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Vpc } from 'aws-cdk-lib/aws-ec2';
import {
  Cluster,
  ContainerImage,
  FargateService,
  FargateTaskDefinition,
  Secret as EcsSecret,
} from 'aws-cdk-lib/aws-ecs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli, startCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The deployed side of `cdkd local start-cloudfront` and `start-service` (on the sandbox): a
// bucket no BucketDeployment fills is served from the deployed bucket, and a task's secrets
// get the values of the deployed Secrets Manager secret and SSM parameter.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
let app: string;
let work: string;

beforeAll(async () => {
  work = tempDir();
  app = synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'Live');
    new Distribution(stack, 'Cdn', {
      defaultBehavior: { origin: S3BucketOrigin.withOriginAccessControl(new Bucket(stack, 'Files')) },
    });
    const cluster = new Cluster(stack, 'Cluster', {
      vpc: new Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 }),
    });
    const task = new FargateTaskDefinition(stack, 'Task');
    const db = new Secret(stack, 'Db', {
      secretStringValue: SecretValue.unsafePlainText(JSON.stringify({ password: 'pw-from-the-secret' })),
    });
    const token = new StringParameter(stack, 'Token', { stringValue: 'tok-from-ssm' });
    task.addContainer('web', {
      image: ContainerImage.fromRegistry('public.ecr.aws/nginx/nginx:1.27'),
      secrets: {
        DB_PASSWORD: EcsSecret.fromSecretsManager(db, 'password'),
        TOKEN: EcsSecret.fromSsmParameter(token),
      },
    });
    new FargateService(stack, 'Web', { cluster, taskDefinition: task });
  });
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
  const deployed = await runCli(['deploy', '-a', app], { env: env() });
  expect(deployed.code, deployed.stderr).toBe(0);
}, 300_000);

describe('cdkd local start-cloudfront of a deployed stack', () => {
  let server: ReturnType<typeof startCli> | undefined;
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.done;
  });

  it('serves a bucket no BucketDeployment fills from the deployed bucket', async () => {
    const s3 = new S3Client({ forcePathStyle: true });
    const buckets = (await s3.send(new ListBucketsCommand({}))).Buckets ?? [];
    const bucket = buckets.map((b) => b.Name!).find((name) => /files/i.test(name));
    expect(bucket, JSON.stringify(buckets)).toBeDefined();
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'hello.txt',
        Body: 'from the deployed bucket',
        ContentType: 'text/plain',
      }),
    );
    server = startCli(['local', 'start-cloudfront', '-a', app, '--port', '0'], 'Serving', { env: env() });
    await Promise.race([
      server.creating,
      server.done.then((code) => {
        throw new Error(`start-cloudfront exited with ${code}: ${server!.stderr()}`);
      }),
    ]);
    expect(server.stderr()).toContain(`so it is served from the deployed bucket ${bucket} (S3 GetObject)`);
    const url = /CloudFront distribution [^\n]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())![1]!;
    const response = await fetch(`${url}/hello.txt`);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe('from the deployed bucket');
    expect((await fetch(`${url}/nothing.txt`)).status).toBe(403);
  }, 120_000);
});

describe('cdkd local start-service of a deployed stack', () => {
  it("hands the container the deployed secrets' values, by name", async () => {
    const log = join(work, 'engine.log');
    const engine = join(work, 'engine.sh');
    writeFileSync(
      engine,
      `#!/bin/sh\necho "ARGS $*" >> ${log}\necho "DB_PASSWORD=$DB_PASSWORD TOKEN=$TOKEN" >> ${log}\nexit 0\n`,
    );
    chmodSync(engine, 0o755);
    // The stand-in engine's container exits at once: one task, not replaced.
    const result = await runCli(['local', 'start-service', 'Live/Web', '-a', app, '--no-restart'], {
      env: { ...env(), CDK_DOCKER: engine },
    });
    expect(result.code, result.stderr).toBe(0);
    const calls = readFileSync(log, 'utf8');
    expect(calls).toContain('-e DB_PASSWORD -e TOKEN public.ecr.aws/nginx/nginx:1.27');
    expect(calls).toContain('DB_PASSWORD=pw-from-the-secret TOKEN=tok-from-ssm');
    expect(result.stderr).not.toContain('pw-from-the-secret');
  }, 120_000);
});

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateFunctionCommand, InvokeCommand, waitUntilFunctionActiveV2 } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { s3Client } from './helpers.js';
import {
  ACCOUNT,
  createFunction,
  lambdaClient,
  logsClient,
  parsePayload,
  ROLE,
  zip,
} from './lambda-runtime-helpers.js';

/** A sandbox on the data dir with its clients, all closed by `stop`. */
async function open(dataDir: string) {
  const sandbox: Sandbox = await startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
  const clients = { lambda: lambdaClient(sandbox), s3: s3Client(sandbox), logs: logsClient(sandbox) };
  return {
    ...clients,
    stop: async () => {
      for (const client of Object.values(clients)) client.destroy();
      await sandbox.stop();
    },
  };
}

describe('Lambda code on a persistent sandbox', () => {
  let dataDir: string;
  let scratch: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cdkd-sandbox-lambda-data-'));
    scratch = await mkdtemp(join(tmpdir(), 'cdkd-lambda-scratch-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  it('runs the package as it was when the function was created, after a restart too, and keeps its logs', async () => {
    const first = await open(dataDir);
    await first.s3.send(new CreateBucketCommand({ Bucket: 'code' }));
    // A package file named *.tmp is code, not a temp file storage cleans up on a restart.
    const version = (tag: string) =>
      zip({
        'index.js': `const tag = require('fs').readFileSync(__dirname + '/tag.tmp', 'utf8');
          exports.handler = async () => { console.log('ran ' + tag); return tag; };`,
        'tag.tmp': tag,
      });
    await first.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'fn.zip', Body: version('original') }));
    await first.lambda.send(
      new CreateFunctionCommand({
        FunctionName: 'from-s3',
        Runtime: 'nodejs22.x',
        Role: ROLE,
        Handler: 'index.handler',
        Timeout: 30,
        Code: { S3Bucket: 'code', S3Key: 'fn.zip' },
      }),
    );
    await waitUntilFunctionActiveV2(
      { client: first.lambda, maxWaitTime: 30, minDelay: 1 },
      { FunctionName: 'from-s3' },
    );
    // Lambda copied the object at CreateFunction: a later upload does not change the function.
    await first.s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'fn.zip', Body: version('replaced') }));
    expect(
      parsePayload((await first.lambda.send(new InvokeCommand({ FunctionName: 'from-s3' }))).Payload),
    ).toBe('original');
    await first.stop();

    const second = await open(dataDir);
    try {
      expect(
        parsePayload((await second.lambda.send(new InvokeCommand({ FunctionName: 'from-s3' }))).Payload),
      ).toBe('original');
      const { events } = await second.logs.send(
        new FilterLogEventsCommand({ logGroupName: '/aws/lambda/from-s3', filterPattern: 'ran' }),
      );
      expect(events!.filter((event) => event.message!.endsWith('\tINFO\tran original'))).toHaveLength(2);
    } finally {
      await second.stop();
    }
  });

  it('keeps one copy of a package that several functions name, and clears half-unzipped ones', async () => {
    const partial = join(dataDir, '.lambda-runtime', 'code', 'killed-mid-unzip.partial');
    await mkdir(partial, { recursive: true });
    const sandbox = await open(dataDir);
    try {
      const same = { 'index.js': 'exports.handler = async () => 1;' };
      await createFunction(sandbox.lambda, { name: 'first', files: same });
      await createFunction(sandbox.lambda, { name: 'second', files: same });
      await createFunction(sandbox.lambda, {
        name: 'other',
        files: { 'index.js': 'exports.handler = async () => 2;' },
      });
      const blobs = (await readdir(join(dataDir, 'lambda', 'code'))).filter((name) => name.endsWith('.blob'));
      expect(blobs).toHaveLength(2);
      expect(
        parsePayload((await sandbox.lambda.send(new InvokeCommand({ FunctionName: 'second' }))).Payload),
      ).toBe(1);
      expect(existsSync(partial)).toBe(false);
    } finally {
      await sandbox.stop();
    }
  });

  it('runs an accepted Event invocation again on the next start when the sandbox stopped before it finished', async () => {
    const flag = join(scratch, 'go');
    const first = await open(dataDir);
    await first.s3.send(new CreateBucketCommand({ Bucket: 'results' }));
    await createFunction(first.lambda, {
      name: 'waits',
      files: {
        'index.mjs': `import { existsSync } from 'node:fs';
          import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
          export const handler = async (event) => {
            console.log('waiting for', event.flag);
            while (!existsSync(event.flag)) await new Promise((done) => setTimeout(done, 20));
            await new S3Client({}).send(new PutObjectCommand({ Bucket: 'results', Key: 'done', Body: 'yes' }));
          };`,
      },
    });
    const accepted = await first.lambda.send(
      new InvokeCommand({
        FunctionName: 'waits',
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify({ flag })),
      }),
    );
    expect(accepted.StatusCode).toBe(202);
    // The handler is running (it logged) when the sandbox stops.
    await expect
      .poll(
        async () =>
          (
            await first.logs.send(
              new FilterLogEventsCommand({ logGroupName: '/aws/lambda/waits', filterPattern: 'waiting' }),
            )
          ).events?.length ?? 0,
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    await first.stop();
    await writeFile(flag, '');

    const second = await open(dataDir);
    try {
      const done = async () => {
        try {
          const object = await second.s3.send(new GetObjectCommand({ Bucket: 'results', Key: 'done' }));
          return await object.Body!.transformToString();
        } catch {
          return undefined;
        }
      };
      await expect.poll(done, { timeout: 60_000 }).toBe('yes');
    } finally {
      await second.stop();
    }
  });

  it('runs a CommonJS handler when the data dir sits in a project whose package.json says "type": "module"', async () => {
    await writeFile(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
    const inProject = join(scratch, '.cdkd-sandbox');
    const sandbox = await open(inProject);
    try {
      await createFunction(sandbox.lambda, {
        name: 'common-js',
        files: { 'index.js': 'exports.handler = async () => "common";' },
      });
      const answer = await sandbox.lambda.send(new InvokeCommand({ FunctionName: 'common-js' }));
      expect(answer.FunctionError).toBeUndefined();
      expect(parsePayload(answer.Payload)).toBe('common');
    } finally {
      await sandbox.stop();
    }
  });
});

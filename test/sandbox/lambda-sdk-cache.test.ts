import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { compareVersions } from '../../src/lambda-runtime/node/sdk-settings.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { ACCOUNT, createFunction, lambdaClient, parsePayload } from './lambda-runtime-helpers.js';

// Issue 25, item 13 (a): Node.js handlers get the whole AWS SDK for JavaScript v3, as on Lambda.
// A client the sandbox does not ship is installed from the npm registry on its first use, into a
// cache (here a test cache, made once for this file), pinned to the SDK release cdkd uses and on
// the sandbox's own @aws-sdk/core and @smithy/core.
const packageJson = (folder: string) =>
  JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
/** The newest client cdkd depends on: what an installed client may not be newer than. */
const RELEASE = Object.entries(packageJson(REPO_ROOT).dependencies)
  .filter(([name]) => name.startsWith('@aws-sdk/client-'))
  .map(([, version]) => version)
  .sort(compareVersions)
  .at(-1)!;
const SMITHY_CORE = packageJson(join(REPO_ROOT, 'node_modules/@smithy/core')).version;
const AWS_SDK_CORE = packageJson(join(REPO_ROOT, 'node_modules/@aws-sdk/core')).version;

const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A CommonJS handler that loads `client` when invoked and reports what it got. */
const commonJsUser = (client: string, command: string) => `
exports.handler = async () => {
  let loaded;
  try {
    loaded = require('${client}');
  } catch (error) {
    return { code: error.code, message: error.message.split('\\n')[0] };
  }
  const { dirname } = require('node:path');
  const at = dirname(require.resolve('${client}/package.json'));
  const version = (name) => require(require.resolve(name + '/package.json', { paths: [at] })).version;
  let answer;
  try {
    await new loaded[Object.keys(loaded).find((name) => name.endsWith('Client') && name !== '__Client')]({}).send(
      new loaded.${command}({}),
    );
  } catch (error) {
    answer = error.name;
  }
  return { version: version('${client}'), smithyCore: version('@smithy/core'), awsCore: version('@aws-sdk/core'), answer };
};`;

/** An ES module handler that imports `client` when invoked. */
const moduleUser = (client: string) => `
export const handler = async () => {
  try {
    const loaded = await import('${client}');
    return { exports: Object.keys(loaded).length };
  } catch (error) {
    return { code: error.code, message: error.message.split('\\n')[0] };
  }
};`;

async function invoke(lambda: LambdaClient, name: string) {
  const response = await lambda.send(new InvokeCommand({ FunctionName: name, LogType: 'Tail' }));
  return {
    error: response.FunctionError,
    payload: parsePayload(response.Payload) as Record<string, unknown>,
    log: Buffer.from(response.LogResult ?? '', 'base64').toString('utf8'),
  };
}

describe('online: a client cdkd does not ship', () => {
  const cache = temp('cdkd-sdk-cache-');
  const said: string[] = [];
  let sandbox: Sandbox;
  let lambda: LambdaClient;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      accountId: ACCOUNT,
      sdkCacheDir: cache,
      log: (line) => said.push(line),
    });
    lambda = lambdaClient(sandbox);
  });
  afterAll(async () => {
    lambda.destroy();
    await sandbox.stop();
  });

  it('is installed on first use, at or below the SDK release cdkd uses, on its @aws-sdk/core and @smithy/core', async () => {
    await createFunction(lambda, {
      name: 'connect-user',
      files: { 'index.js': commonJsUser('@aws-sdk/client-connect', 'ListInstancesCommand') },
      timeout: 240,
    });
    const first = await invoke(lambda, 'connect-user');
    expect(first.error, JSON.stringify(first.payload)).toBeUndefined();
    expect(compareVersions(first.payload.version as string, RELEASE)).toBeLessThanOrEqual(0);
    expect(first.payload).toMatchObject({ smithyCore: SMITHY_CORE, awsCore: AWS_SDK_CORE });
    // The client signed a request to the sandbox and read its answer: Connect is not served here.
    expect(first.payload.answer).toBe('UnknownService');
    expect(said).toEqual([
      expect.stringContaining('Lambda function connect-user: Installing @aws-sdk/client-connect@<='),
    ]);
    expect(first.log).toContain('Installing @aws-sdk/client-connect');

    // The next process finds it in the cache: nothing is installed again.
    await createFunction(lambda, {
      name: 'connect-user-again',
      files: { 'index.js': commonJsUser('@aws-sdk/client-connect', 'ListInstancesCommand') },
    });
    const again = await invoke(lambda, 'connect-user-again');
    expect(again.payload).toMatchObject({ version: first.payload.version, answer: 'UnknownService' });
    expect(said).toHaveLength(1);
  }, 300_000);

  it('two first uses at once, by require and by import, share one complete install', async () => {
    await createFunction(lambda, {
      name: 'pipes-require',
      files: { 'index.js': commonJsUser('@aws-sdk/client-pipes', 'ListPipesCommand') },
      timeout: 240,
    });
    await createFunction(lambda, {
      name: 'pipes-import',
      files: { 'index.mjs': moduleUser('@aws-sdk/client-pipes') },
      timeout: 240,
    });
    const [required, imported] = await Promise.all([
      invoke(lambda, 'pipes-require'),
      invoke(lambda, 'pipes-import'),
    ]);
    expect(required.error, JSON.stringify(required.payload)).toBeUndefined();
    expect(required.payload.answer).toBe('UnknownService');
    expect(imported.error, JSON.stringify(imported.payload)).toBeUndefined();
    expect(imported.payload.exports).toBeGreaterThan(0);
    const [release] = readdirSync(cache);
    expect(readdirSync(join(cache, release!)).sort()).toEqual(['client-connect', 'client-pipes']);
  }, 300_000);
});

describe('offline: the registry cannot be reached', () => {
  const said: string[] = [];
  const saved = { registry: process.env.npm_config_registry, cache: process.env.npm_config_cache };
  let sandbox: Sandbox;
  let lambda: LambdaClient;
  beforeAll(async () => {
    // Nothing listens on port 9, and npm's own cache is empty: no install can succeed.
    process.env.npm_config_registry = 'http://127.0.0.1:9/';
    process.env.npm_config_cache = temp('cdkd-npm-cache-');
    sandbox = await startSandbox({
      port: 0,
      accountId: ACCOUNT,
      sdkCacheDir: temp('cdkd-sdk-offline-'),
      log: (line) => said.push(line),
    });
    lambda = lambdaClient(sandbox);
  });
  afterAll(async () => {
    for (const [key, value] of [
      ['npm_config_registry', saved.registry],
      ['npm_config_cache', saved.cache],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    lambda.destroy();
    await sandbox.stop();
  });

  it("the handler gets Node's own error; the sandbox's log says what failed and how to fix it", async () => {
    await createFunction(lambda, {
      name: 'offline-require',
      files: { 'index.js': commonJsUser('@aws-sdk/client-connect', 'ListInstancesCommand') },
      timeout: 120,
    });
    await createFunction(lambda, {
      name: 'offline-import',
      files: { 'index.mjs': moduleUser('@aws-sdk/client-connect') },
      timeout: 120,
    });
    const required = await invoke(lambda, 'offline-require');
    expect(required.payload).toEqual({
      code: 'MODULE_NOT_FOUND',
      message: "Cannot find module '@aws-sdk/client-connect'",
    });
    const imported = await invoke(lambda, 'offline-import');
    expect(imported.payload).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
    expect(imported.payload.message).toContain("Cannot find package '@aws-sdk/client-connect'");
    const failures = said.filter((line) => line.includes('Could not install @aws-sdk/client-connect'));
    expect(failures.map((line) => line.split(':')[0])).toEqual([
      'Lambda function offline-require',
      'Lambda function offline-import',
    ]);
    expect(failures[0]).toContain('npm install exited');
    expect(failures[0]).toContain('make the npm registry reachable');
    expect(failures[0]).toContain("npm install --prefix '");
    expect(required.log).toContain('Could not install @aws-sdk/client-connect');
  }, 300_000);
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { REPO_ROOT, startCli } from '../helpers/cli.js';

// `cdkd local start-api` in a project whose app it synthesizes itself: an edit to the
// function's source is synthesized again (as `cdkd watch` decides what counts) and served on
// the next request without a restart; an app that no longer synthesizes is reported and
// the previous synthesis serves on.
const lib = (path: string) => JSON.stringify(join(REPO_ROOT, 'node_modules', path));
const APP = (extra = '') => `
const cdk = require(${lib('aws-cdk-lib')});
const lambda = require(${lib('aws-cdk-lib/aws-lambda')});
const apigateway = require(${lib('aws-cdk-lib/aws-apigateway')});
const app = new cdk.App();
const stack = new cdk.Stack(app, 'Web');
const fn = new lambda.Function(stack, 'Fn', {
  runtime: lambda.Runtime.NODEJS_20_X,
  handler: 'index.handler',
  code: lambda.Code.fromAsset(require('node:path').join(__dirname, 'lambda')),
});
new apigateway.LambdaRestApi(stack, 'Api', { handler: fn });
${extra}
app.synth();
`;
const handler = (answer: string) =>
  `exports.handler = async () => ({ statusCode: 200, body: '${answer}' });\n`;

let project: string;
let server: ReturnType<typeof startCli>;
let url: string;
const write = (path: string, text: string) => writeFileSync(join(project, path), text);
const count = (text: string) => server.stderr().split(text).length - 1;

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const answer = async () => (await fetch(`${url}/hello`)).text();

beforeAll(async () => {
  project = tempDir();
  mkdirSync(join(project, 'lambda'));
  write('app.cjs', APP());
  write('lambda/index.js', handler('v1'));
  write('cdk.json', JSON.stringify({ app: 'node app.cjs' }));
  server = startCli(['local', 'start-api', '--port', '0', '--no-deployed', '--no-validation'], 'Serving', {
    cwd: project,
    // Nothing answers there: synthesis finds no account at once and goes on environment-agnostic.
    env: { AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1' },
  });
  await server.creating;
  const port = /REST API Web\/\w+ \([^)]*\): http:\/\/127\.0\.0\.1:(\d+)/.exec(server.stderr())?.[1];
  if (!port) throw new Error(`no port in:\n${server.stderr()}`);
  url = `http://127.0.0.1:${port}`;
}, 180_000);

afterAll(async () => {
  if (server.child.exitCode === null) {
    server.child.kill('SIGINT');
    await server.done;
  }
});

describe('cdkd local start-api on an app it synthesizes', () => {
  it('serves an edit to the handler source after synthesizing again, without a restart', async () => {
    expect(server.stderr()).toContain('a change to the app');
    expect(await answer()).toBe('v1');
    write('lambda/index.js', handler('v2'));
    await until(() => count('Reloaded') === 1, 'the reload');
    expect(server.stderr()).toContain('Changed: lambda/index.js; synthesizing again.');
    expect(await answer()).toBe('v2');
  }, 180_000);

  it('prints a failed synthesis and keeps serving the previous one', async () => {
    write('app.cjs', APP('this is not javascript;'));
    await until(() => count('Still serving the previous synthesis') === 1, 'the failed synthesis');
    expect(server.stderr()).toContain('SYNTH_FAILED');
    expect(await answer()).toBe('v2');
    // Mended, the app is served again with what changed meanwhile.
    write('lambda/index.js', handler('v3'));
    write('app.cjs', APP());
    await until(() => count('Reloaded') === 2, 'the reload after the fix');
    expect(await answer()).toBe('v3');
  }, 240_000);

  it('leaves files cdk.json excludes alone, as cdkd watch does', async () => {
    const changes = count('Changed:');
    write('README.md', '# not the app\n');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(count('Changed:')).toBe(changes);
  }, 30_000);

  it('stops on Ctrl-C', async () => {
    server.child.kill('SIGINT');
    expect(await server.done).toBe(0);
  }, 60_000);
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { LambdaRestApi } from 'aws-cdk-lib/aws-apigateway';
import { afterEach, describe, expect, it } from 'vitest';
import { readAssembly, type CloudAssembly } from '../../src/assembly/index.js';
import { startApi } from '../../src/local/api/start-api.js';
import type { LocalServers } from '../../src/local/serve/local-servers.js';
import { tempDir } from '../assembly/helpers.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';

// The served assembly swapped under running servers (what `cdkd local start-*` does after a
// change to an app it synthesizes): requests under way finish on the old one, the next ones
// are answered by the new one on the same port, an endpoint the new one adds gets a port of
// its own, and an assembly that cannot be served leaves the old one serving.
// A slow request marks the moment it is in the handler, so the test swaps only then.
const marker = join(tempDir(), 'in-handler');
const handler = (answer: string) =>
  `exports.handler = async (event) => { if (event.queryStringParameters && event.queryStringParameters.slow) { require('fs').writeFileSync(${JSON.stringify(marker)}, ''); await new Promise((r) => setTimeout(r, 1000)); } return { statusCode: 200, body: '${answer}' }; };`;

function assembly(answer: string, apis: string[] = ['Api'], stack = 'Web'): CloudAssembly {
  return readAssembly(
    synthesizeApp((cdk) => {
      const scope = new Stack(cdk, stack);
      const fn = inlineFunction(scope, 'Fn', handler(answer));
      for (const api of apis) new LambdaRestApi(scope, api, { handler: fn });
    }),
  );
}

const messages: string[] = [];
let running: LocalServers | undefined;

async function start(first: CloudAssembly): Promise<LocalServers> {
  running = await startApi({
    stack: 'Web',
    assembly: first,
    region: 'us-east-1',
    port: 0,
    onLog: () => undefined,
    onWarning: (message) => messages.push(`warning: ${message}`),
    onInfo: (message) => messages.push(message),
  });
  return running;
}

const get = async (port: number, query = '') => {
  const response = await fetch(`http://127.0.0.1:${port}/x${query}`);
  return `${response.status} ${await response.text()}`;
};

afterEach(async () => {
  await running?.close();
  running = undefined;
  messages.length = 0;
});

describe('reloading the servers of cdkd local start-*', () => {
  it('answers the next request from the new assembly on the same port; one under way finishes on the old', async () => {
    const servers = await start(assembly('old'));
    const port = servers.endpoints[0]!.port;
    expect(await get(port)).toBe('200 old');
    const next = assembly('new');
    const underWay = get(port, '?slow=1');
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 20));
    await servers.reload(next);
    expect(await get(port)).toBe('200 new');
    expect(await underWay).toBe('200 old');
  }, 240_000);

  it('keeps serving the old assembly when the new one cannot be served', async () => {
    const servers = await start(assembly('old'));
    const port = servers.endpoints[0]!.port;
    await expect(servers.reload(assembly('new', ['Api'], 'Other'))).rejects.toMatchObject({
      code: 'LOCAL_API_NOT_FOUND',
    });
    expect(await get(port)).toBe('200 old');
  }, 240_000);

  it('serves an API the new assembly adds on a port of its own, and closes the port of one it drops', async () => {
    const servers = await start(assembly('one'));
    const port = servers.endpoints[0]!.port;
    await servers.reload(assembly('two', ['Api', 'Second']));
    const added = messages.find((message) => message.startsWith('REST API Web/Second'));
    const addedPort = Number(/:(\d+)$/.exec(added ?? '')?.[1]);
    expect(addedPort).toBeGreaterThan(0);
    expect(addedPort).not.toBe(port);
    expect(await get(addedPort)).toBe('200 two');
    expect(await get(port)).toBe('200 two');
    await servers.reload(assembly('three', ['Second']));
    expect(messages.some((message) => message.includes(`port ${port} closed`))).toBe(true);
    await expect(fetch(`http://127.0.0.1:${port}/x`)).rejects.toThrow();
    expect(await get(addedPort)).toBe('200 three');
  }, 240_000);
});

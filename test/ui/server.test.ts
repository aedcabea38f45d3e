import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiData } from '../../src/toolkit/ui/ui-data.js';
import { startUiServer, type UiServer } from '../../src/ui/server.js';

const TOKEN = 'a'.repeat(48);
const assets = mkdtempSync(join(tmpdir(), 'cdkd-ui-assets-'));
writeFileSync(join(assets, 'index.html'), '<html>page</html>');
writeFileSync(join(assets, 'app.js'), 'void 0;');

const data: Pick<UiData, 'bucket' | 'stacks' | 'stack' | 'events'> = {
  bucket: 'state-bucket',
  stacks: async () => [
    { stackName: 'S', region: 'us-east-1', resourceCount: 2, updatedAt: 'now', pendingJournal: 0 },
  ],
  stack: async (ref) =>
    ref.stackName === 'S' ? { ...ref, updatedAt: 'now', resources: [], outputs: {}, imports: [] } : undefined,
  events: async () => ({ events: [], dependencies: {} }),
};

let server: UiServer;
beforeAll(async () => {
  server = await startUiServer({ data, port: 0, assets, token: TOKEN });
});
afterAll(() => server.close());

/** A raw request, so the Host header and cookies are exactly what the test says. */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method,
        headers: { host: `127.0.0.1:${server.port}`, ...headers },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('cdkd ui server access', () => {
  it('prints a URL on 127.0.0.1 carrying the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${TOKEN}`);
  });

  it.each(['/', '/app.js', '/api/stacks', '/api/stacks/us-east-1/S', '/api/sandbox/faults'])(
    'refuses %s without the token (401)',
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).error.code).toBe('NoToken');
    },
  );

  it('refuses a wrong token of the same length', async () => {
    expect((await get(`/api/stacks?token=${'b'.repeat(48)}`)).status).toBe(401);
  });

  it.each(['evil.example:80', `evil.example:${0}`, 'localhost', '127.0.0.1'])(
    'refuses Host %s even with the token (403): a rebinding page cannot read it',
    async (host) => {
      const answer = await get(`/api/stacks?token=${TOKEN}`, { host });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error.code).toBe('BadHost');
    },
  );

  it('answers with the token in the query, the header, or the cookie the page load set', async () => {
    const page = await get(`/?token=${TOKEN}`);
    expect(page.status).toBe(200);
    expect(page.body).toBe('<html>page</html>');
    const cookie = String((page.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    expect(cookie).toBe(`cdkd_ui_token=${TOKEN}`);
    expect((await get('/api/stacks', { cookie })).status).toBe(200);
    expect((await get('/api/stacks', { 'x-cdkd-token': TOKEN })).status).toBe(200);
    expect(
      (await get('/api/stacks', { host: `localhost:${server.port}`, 'x-cdkd-token': TOKEN })).status,
    ).toBe(200);
  });
});

describe('cdkd ui server routes', () => {
  const auth = { 'x-cdkd-token': TOKEN };

  it('lists the stacks with the bucket', async () => {
    const answer = JSON.parse((await get('/api/stacks', auth)).body);
    expect(answer).toEqual({ bucket: 'state-bucket', stacks: [expect.objectContaining({ stackName: 'S' })] });
  });

  it('answers a stack, 404 for one not in state', async () => {
    expect((await get('/api/stacks/us-east-1/S', auth)).status).toBe(200);
    const missing = await get('/api/stacks/us-east-1/Nope', auth);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe('StackNotFound');
  });

  it('is read-only over state', async () => {
    expect((await get('/api/stacks', auth, 'DELETE')).status).toBe(405);
  });

  it('refuses sandbox routes the page has no use for, and says when no sandbox is configured', async () => {
    expect((await get('/api/sandbox/calls', auth, 'DELETE')).status).toBe(404);
    const none = await get('/api/sandbox/faults', auth);
    expect(none.status).toBe(404);
    expect(JSON.parse(none.body).error.code).toBe('NoSandbox');
    expect((await get('/api/sandbox/calls/recent', auth, 'DELETE')).status).toBe(404);
    expect((await get('/api/sandbox/views/sqs/other', auth)).status).toBe(404);
    const data = await get('/api/data/objects?bucket=b', auth);
    expect(data.status).toBe(404);
    expect(JSON.parse(data.body).error.code).toBe('NoSandbox');
  });
});

describe('cdkd ui server pointed at a sandbox', () => {
  let sandbox: Server;
  let pointed: UiServer;
  const seen: string[] = [];
  beforeAll(async () => {
    sandbox = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"calls":[]}');
    });
    await new Promise<void>((resolve) => sandbox.listen(0, '127.0.0.1', resolve));
    const port = (sandbox.address() as AddressInfo).port;
    pointed = await startUiServer({
      data,
      port: 0,
      assets,
      token: TOKEN,
      sandboxEndpoint: `http://127.0.0.1:${port}`,
      services: {
        objects: async (bucket, region) => ({ bucket: `${bucket}@${region}`, objects: [], truncated: false }),
        logs: async () => {
          throw Object.assign(new Error('Function not found'), { name: 'ResourceNotFoundException' });
        },
      },
    });
  });
  afterAll(async () => {
    await pointed.close();
    await new Promise((resolve) => sandbox.close(resolve));
  });

  const at = (path: string) =>
    fetch(`http://127.0.0.1:${pointed.port}${path}`, { headers: { 'x-cdkd-token': TOKEN } });

  it('forwards the recent calls and a queue view with its query to the sandbox', async () => {
    expect((await at('/api/sandbox/calls/recent')).status).toBe(200);
    expect((await at('/api/sandbox/views/sqs/messages?queue=q1&region=eu-west-1')).status).toBe(200);
    expect(seen).toEqual([
      'GET /_sandbox/calls/recent',
      'GET /_sandbox/views/sqs/messages?queue=q1&region=eu-west-1',
    ]);
  });

  it("answers a bucket's objects and a function's logs, an AWS error as 502 with its code", async () => {
    const objects = await at('/api/data/objects?bucket=b1&region=eu-west-1');
    expect(await objects.json()).toEqual({ bucket: 'b1@eu-west-1', objects: [], truncated: false });
    const logs = await at('/api/data/logs?function=f');
    expect(logs.status).toBe(502);
    expect(((await logs.json()) as { error: { code: string } }).error.code).toBe('ResourceNotFoundException');
    expect((await at('/api/data/objects')).status).toBe(404);
  });
});

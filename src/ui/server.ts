import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { UiData } from '../toolkit/index.js';
import type { UiServiceData } from '../toolkit/index.js';
import type { PendingChange } from '../toolkit/index.js';
import { checkAccess, TOKEN_COOKIE } from './access.js';
import { forwardToSandbox } from './sandbox-admin.js';

export interface UiServerOptions {
  data: Pick<UiData, 'bucket' | 'stacks' | 'stack' | 'events'>;
  /** A pending `cdkd diff` of one stack; absent when no app was given. */
  diff?: (ref: { stackName: string; region: string }) => Promise<PendingChange[]>;
  /** 0 picks a free port. */
  port: number;
  /** Folder holding the built page (index.html, app.js). */
  assets: string;
  /** A cdkd sandbox's endpoint, whose admin API the sandbox page uses. */
  sandboxEndpoint?: string;
  /** Objects in buckets and functions' logs, read through the services' APIs for the sandbox page. */
  services?: Pick<UiServiceData, 'objects' | 'logs'>;
  /** Fixed in tests; random otherwise. */
  token?: string;
}

export interface UiServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
};

/** Serves the page and its JSON routes on 127.0.0.1 only. */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? randomBytes(24).toString('hex');
  let port = 0;
  const server = createServer((request, response) => {
    handle(request, response, { ...options, token, port }).catch((error: unknown) =>
      send(response, 500, { error: { code: 'InternalError', message: (error as Error).message } }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  context: UiServerOptions & { token: string; port: number },
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const access = checkAccess(request, url, context);
  if (access === 'bad-host') {
    return send(response, 403, {
      error: { code: 'BadHost', message: 'The Host header does not name this server.' },
    });
  }
  if (access === 'no-token') {
    return send(response, 401, {
      error: { code: 'NoToken', message: 'Open the URL cdkd ui printed: it carries the access token.' },
    });
  }
  const method = request.method ?? 'GET';
  const asset = ASSETS[url.pathname];
  if (asset && method === 'GET') {
    const body = await readFile(join(context.assets, asset.file)).catch(() => undefined);
    if (!body) {
      return send(response, 500, {
        error: {
          code: 'NotBuilt',
          message: `${asset.file} is missing from ${context.assets}: run npm run build.`,
        },
      });
    }
    response.writeHead(200, {
      'content-type': asset.type,
      'cache-control': 'no-store',
      'set-cookie': `${TOKEN_COOKIE}=${context.token}; HttpOnly; SameSite=Strict; Path=/`,
    });
    response.end(body);
    return;
  }
  if (url.pathname.startsWith('/api/sandbox/')) {
    const answer = await forwardToSandbox(
      context.sandboxEndpoint,
      method,
      url.pathname.slice('/api/sandbox/'.length),
      await readBody(request),
      url.search,
    );
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.body);
    return;
  }
  if (method !== 'GET') {
    return send(response, 405, {
      error: { code: 'MethodNotAllowed', message: 'The state routes are read-only.' },
    });
  }
  if (url.pathname.startsWith('/api/data/')) return send(response, ...(await dataRoute(url, context)));
  return send(response, ...(await stateRoute(url.pathname, context)));
}

/** `/api/data/objects?bucket=` and `/api/data/logs?function=` (each with an optional `region=`). */
async function dataRoute(url: URL, { services }: UiServerOptions): Promise<[number, unknown]> {
  if (!services) {
    return [
      404,
      {
        error: {
          code: 'NoSandbox',
          message: 'AWS_ENDPOINT_URL is not set: cdkd is not pointed at a sandbox.',
        },
      },
    ];
  }
  const region = url.searchParams.get('region') ?? undefined;
  const bucket = url.searchParams.get('bucket');
  const fn = url.searchParams.get('function');
  try {
    if (url.pathname === '/api/data/objects' && bucket) return [200, await services.objects(bucket, region)];
    if (url.pathname === '/api/data/logs' && fn) return [200, await services.logs(fn, region)];
  } catch (error) {
    const code = (error as { name?: string }).name ?? 'Error';
    return [502, { error: { code, message: (error as Error).message } }];
  }
  return [404, { error: { code: 'NotFound', message: `no route ${url.pathname}${url.search}` } }];
}

/** `/api/stacks`, `/api/stacks/{region}/{stack}`, its `/events` and its `/diff`. */
async function stateRoute(path: string, { data, diff }: UiServerOptions): Promise<[number, unknown]> {
  if (path === '/api/stacks') return [200, { bucket: data.bucket, stacks: await data.stacks() }];
  const match = /^\/api\/stacks\/([^/]+)\/([^/]+)(\/events|\/diff)?$/.exec(path);
  if (!match) return [404, { error: { code: 'NotFound', message: `no route ${path}` } }];
  const ref = { region: decodeURIComponent(match[1]!), stackName: decodeURIComponent(match[2]!) };
  if (match[3] === '/events') return [200, await data.events(ref)];
  if (match[3] === '/diff') {
    if (!diff)
      return [404, { error: { code: 'NoApp', message: 'Start cdkd ui with --app to see a pending diff.' } }];
    return [200, { changes: await diff(ref) }];
  }
  const detail = await data.stack(ref);
  return detail
    ? [200, detail]
    : [404, { error: { code: 'StackNotFound', message: `no state for ${ref.stackName} in ${ref.region}` } }];
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A deploy through a forwarding proxy written here, which counts what passes through it.
const sandbox = useSandbox();
let proxy: Server;
let forwarded = 0;

function startProxy(): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    forwarded++;
    const url = new URL(incoming.url!);
    const upstream = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  server.on('connect', (incoming, socket, head) => {
    forwarded++;
    const [host, port] = incoming.url!.split(':');
    const tunnel = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      tunnel.write(head);
      tunnel.pipe(socket);
      socket.pipe(tunnel);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const proxyUrl = () => `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
const cli = (args: string[], extra: Record<string, string>) =>
  runCli(args, { env: { ...sandboxEnv(sandbox.current.url), ...extra } });

function app(stackName: string) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: { Q: { Type: 'AWS::SQS::Queue' } } } }]);
  return dir;
}

beforeAll(async () => {
  proxy = await startProxy();
  expect((await cli(['bootstrap'], {})).code).toBe(0);
});

afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

describe('proxies', () => {
  it('a deploy goes through HTTP_PROXY', async () => {
    forwarded = 0;
    const deployed = await cli(['deploy', '-a', app('Proxied')], { HTTP_PROXY: proxyUrl() });
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(forwarded).toBeGreaterThan(3);
  });

  it('the lower-case spelling wins over the upper-case one', async () => {
    forwarded = 0;
    const deployed = await cli(['destroy', '-a', app('Proxied'), '--yes'], {
      HTTP_PROXY: 'http://127.0.0.1:9',
      http_proxy: proxyUrl(),
    });
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(forwarded).toBeGreaterThan(0);
  });

  it('NO_PROXY bypasses it, and a CIDR entry is ignored', async () => {
    forwarded = 0;
    const bypassing = await cli(['deploy', '-a', app('Direct')], {
      HTTP_PROXY: proxyUrl(),
      NO_PROXY: '127.0.0.1',
    });
    expect(bypassing.code, bypassing.stderr).toBe(0);
    expect(forwarded).toBe(0);

    const cidr = await cli(['destroy', '-a', app('Direct'), '--yes'], {
      HTTP_PROXY: proxyUrl(),
      NO_PROXY: '127.0.0.0/8',
    });
    expect(cidr.code, cidr.stderr).toBe(0);
    expect(forwarded).toBeGreaterThan(0);
  });
});

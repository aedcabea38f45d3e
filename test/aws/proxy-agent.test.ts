import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';

// An https endpoint is reached through HTTPS_PROXY with a CONNECT tunnel. The proxy here
// records the tunnel's target and refuses it, so the call fails after reaching the proxy.
let proxy: Server;
const tunnels: string[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  proxy = createServer();
  proxy.on('connect', (request, socket) => {
    tunnels.push(request.url!);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  process.env = saved;
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

function stsThroughProxy(env: Record<string, string>) {
  process.env = {
    ...saved,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKID',
    AWS_SECRET_ACCESS_KEY: 'secret',
    AWS_ENDPOINT_URL: 'https://sts.example.test:8443',
    HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    ...env,
  };
  delete process.env.HTTP_PROXY;
  delete process.env.http_proxy;
  delete process.env.https_proxy;
  delete process.env.no_proxy;
  return new AwsClients().sts();
}

describe('the routing agent for https endpoints', () => {
  it('opens a CONNECT tunnel through HTTPS_PROXY to the endpoint', async () => {
    tunnels.length = 0;
    const sts = await stsThroughProxy({});
    await expect(sts.send(new GetCallerIdentityCommand({}))).rejects.toThrow();
    expect(tunnels[0]).toBe('sts.example.test:8443');
  });

  it('does not use the proxy for a host NO_PROXY names', async () => {
    tunnels.length = 0;
    const sts = await stsThroughProxy({ NO_PROXY: '.example.test' });
    await expect(sts.send(new GetCallerIdentityCommand({}))).rejects.toThrow();
    expect(tunnels).toEqual([]);
  });
});

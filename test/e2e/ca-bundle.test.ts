import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The sandbox behind an HTTPS endpoint whose certificate a test CA signs, as behind a
// company proxy that re-signs TLS: trusted only through --ca-bundle-path or AWS_CA_BUNDLE.
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const sandbox = useSandbox();
let endpoint: Server;
let dir: string;

function certificate(): { key: string; cert: string } {
  dir = tempDir();
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', 'key.pem', '-out', 'cert.pem'],
    ],
    { cwd: dir, stdio: 'ignore' },
  );
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
  };
}

/** Terminates TLS and forwards each request to the sandbox. */
function httpsInFront(target: URL): Promise<Server> {
  const server = createServer(certificate(), (incoming, outgoing) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
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
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, {
    env: {
      ...sandboxEnv(sandbox.current.url),
      AWS_ENDPOINT_URL: `https://127.0.0.1:${(endpoint.address() as AddressInfo).port}`,
      ...extra,
    },
  });

describe.skipIf(!hasOpenssl)('--ca-bundle-path and AWS_CA_BUNDLE (skipped where openssl is missing)', () => {
  beforeAll(async () => {
    endpoint = await httpsInFront(new URL(sandbox.current.url));
  });
  afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));

  it('refuses an endpoint whose certificate nothing trusts', async () => {
    const refused = await cli(['bootstrap']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('TLS_CERTIFICATE_UNTRUSTED');
    expect(refused.stderr).toContain('--ca-bundle-path');
  });

  it('trusts the bundle --ca-bundle-path names, else AWS_CA_BUNDLE', async () => {
    const bundle = join(dir, 'cert.pem');
    const bootstrapped = await cli(['bootstrap', '--ca-bundle-path', bundle]);
    expect(bootstrapped.code, bootstrapped.stderr).toBe(0);
    const listed = await cli(['state', 'list'], { AWS_CA_BUNDLE: bundle });
    expect(listed.code, listed.stderr).toBe(0);
  });

  it('names an unreadable bundle and where it came from', async () => {
    const missing = join(dir, 'missing.pem');
    const fromFlag = await cli(['state', 'list', '--ca-bundle-path', missing]);
    expect(fromFlag.code).toBe(1);
    expect(fromFlag.stderr).toContain(`--ca-bundle-path names ${missing}, which cannot be read`);
    const fromEnv = await cli(['state', 'list'], { AWS_CA_BUNDLE: missing });
    expect(fromEnv.stderr).toContain(`AWS_CA_BUNDLE names ${missing}`);
  });
});

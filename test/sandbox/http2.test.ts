import {
  CreateStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  KinesisClient,
  ListShardsCommand,
  PutRecordCommand,
} from '@aws-sdk/client-kinesis';
import { connect, type ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngressRequest } from '../../src/sandbox/ingress.js';
import { queryCodec } from '../../src/sandbox/protocols/query.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { ServiceModuleFactory } from '../../src/sandbox/service-module.js';
import { ACCOUNT, clientConfig } from './lambda-runtime-helpers.js';

// The sandbox answers HTTP/2 cleartext with prior knowledge (h2c) on its one port, beside
// HTTP/1.1: the Kinesis client opens an `http://` endpoint that way by default.
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
});
afterAll(async () => {
  await sandbox.stop();
});

/** One HTTP/2 request on `session`: the status, headers and body of the answer. */
function request(
  session: ClientHttp2Session,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((done, fail) => {
    const stream = session.request(headers);
    let answer: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    stream.on('response', (received) => (answer = received));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () =>
      done({ status: Number(answer[':status']), headers: answer, body: Buffer.concat(chunks).toString() }),
    );
    stream.on('error', fail);
    stream.end();
  });
}

describe('HTTP/2 cleartext', () => {
  it('serves a Kinesis client with its default (HTTP/2) request handler', async () => {
    const kinesis = new KinesisClient(clientConfig(sandbox));
    try {
      await kinesis.send(new CreateStreamCommand({ StreamName: 'h2', ShardCount: 1 }));
      const put = await kinesis.send(
        new PutRecordCommand({ StreamName: 'h2', PartitionKey: 'k', Data: Buffer.from('over h2') }),
      );
      const { Shards } = await kinesis.send(new ListShardsCommand({ StreamName: 'h2' }));
      const { ShardIterator } = await kinesis.send(
        new GetShardIteratorCommand({
          StreamName: 'h2',
          ShardId: Shards![0]!.ShardId,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      const { Records } = await kinesis.send(new GetRecordsCommand({ ShardIterator }));
      expect(Records?.map((record) => Buffer.from(record.Data!).toString())).toEqual(['over h2']);
      expect(Records?.[0]?.SequenceNumber).toBe(put.SequenceNumber);
    } finally {
      kinesis.destroy();
    }
  });

  it('answers a raw HTTP/2 request, with HTTP/1.1 still served on the same port', async () => {
    const session = connect(sandbox.url);
    try {
      const health = await request(session, { ':path': '/_sandbox/health' });
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toMatchObject({ status: 'ok' });
      expect(health.headers['connection']).toBeUndefined();
    } finally {
      session.close();
    }
    const http1 = await fetch(`${sandbox.url}/_sandbox/health`);
    expect(http1.status).toBe(200);
  });

  it('passes :authority on as the host, and never sends connection-specific headers', async () => {
    // A module answering requests addressed to its host, with headers only HTTP/1.1 may carry.
    const echo: ServiceModuleFactory = async () => ({
      name: 'echo',
      codec: queryCodec,
      operation: () => 'Echo',
      isMutating: () => false,
      handle: async () => ({ status: 200 }),
      inventory: () => ({}),
      ingress: {
        claim: (request: IngressRequest) => (request.host === 'echo.localhost' ? 'Echo' : undefined),
        serve: async (request: IngressRequest) => ({
          status: 200,
          headers: { connection: 'close', 'keep-alive': 'timeout=5', 'x-echo': 'yes' },
          body: JSON.stringify({ host: request.host, names: request.headerList.map(([name]) => name) }),
        }),
        endpoints: () => [],
      },
    });
    const own = await startSandbox({ port: 0, services: [echo] });
    const session = connect(own.url);
    try {
      const answer = await request(session, { ':path': '/', ':authority': `echo.localhost:${own.port}` });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-echo']).toBe('yes');
      expect(answer.headers['connection']).toBeUndefined();
      const echoed = JSON.parse(answer.body) as { host: string; names: string[] };
      expect(echoed.host).toBe('echo.localhost');
      expect(echoed.names).toContain('host');
      expect(echoed.names.filter((name) => name.startsWith(':'))).toEqual([]);
    } finally {
      session.close();
      await own.stop();
    }
  });

  it('stop() returns promptly while an HTTP/2 session is still open', async () => {
    const own = await startSandbox({ port: 0 });
    const session = connect(own.url);
    // stop() may cut the connection before the client has read the server's GOAWAY.
    session.on('error', () => {});
    const closed = new Promise<void>((done) => session.once('close', () => done()));
    expect((await request(session, { ':path': '/_sandbox/health' })).status).toBe(200);
    await own.stop();
    await closed;
    expect(session.closed || session.destroyed).toBe(true);
    // The timeout is under the 5 s grace stop() gives requests in flight: an idle session is not waited for.
  }, 4000);
});

import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

/** Kept short so CREATING → ACTIVE (and DELETING → gone) is observable but quick. */
export const TABLE_TRANSITION_MS = 60;

const DROPPED_HEADERS = new Set(['content-length', 'connection', 'keep-alive', 'x-amz-crc32', 'date']);

export interface ForwardResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One in-process dynalite on an ephemeral loopback port (one per region: dynalite holds one). */
export class DynaliteServer {
  private constructor(
    private readonly server: Server,
    private readonly port: number,
  ) {}

  /** `path`: dynalite's LevelDB directory; in memory when absent. */
  static async start(path: string | undefined): Promise<DynaliteServer> {
    const server = dynalite({
      createTableMs: TABLE_TRANSITION_MS,
      deleteTableMs: TABLE_TRANSITION_MS,
      updateTableMs: TABLE_TRANSITION_MS,
      ...(path !== undefined ? { path } : {}),
    }) as Server;
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => done());
    });
    return new DynaliteServer(server, (server.address() as AddressInfo).port);
  }

  /** Sends a DynamoDB JSON request (`X-Amz-Target`, body) and returns dynalite's answer. */
  forward(target: string, body: string, authorization: string): Promise<ForwardResponse> {
    return new Promise((resolve, reject) => {
      const call = httpRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          method: 'POST',
          path: '/',
          headers: {
            'x-amz-target': target,
            'content-type': 'application/x-amz-json-1.0',
            'content-length': Buffer.byteLength(body),
            authorization,
            'x-amz-date': new Date().toISOString().replace(/[-:]|\.\d{3}/g, ''),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              // The module may rewrite the body, so dynalite's length and checksum no longer hold.
              if (typeof value === 'string' && !DROPPED_HEADERS.has(name)) headers[name] = value;
            }
            resolve({
              status: response.statusCode ?? 500,
              headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          response.on('error', reject);
        },
      );
      call.on('error', reject);
      call.end(body);
    });
  }

  stop(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  Http2ServerResponse,
  type Http2ServerRequest,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { flattenHeaders } from './request.js';

export type Request = IncomingMessage | Http2ServerRequest;
export type Response = ServerResponse | Http2ServerResponse;

export interface Listener {
  port: number;
  /** Stops accepting; closes idle connections and asks HTTP/2 sessions to end after their streams. */
  closeIdle(): void;
  /** Ends every connection still open; resolves once the port is closed. */
  closeAll(): Promise<void>;
}

// Some clients open an `http://` endpoint with HTTP/2 cleartext and prior knowledge (h2c): the
// AWS SDK's Kinesis client does by default. Node has no server that speaks both on one port, so
// the listening HTTP/1.1 server reads each connection's first bytes and hands a connection that
// opens with the HTTP/2 preface to an HTTP/2 server instead.
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/** Serves HTTP/1.1 and h2c on one port, every request through `handle`. */
export async function listen(
  port: number,
  host: string,
  handle: (req: Request, res: Response) => void,
): Promise<Listener> {
  const http = createServer(handle);
  const http2 = createHttp2Server(handle);
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  http2.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  // The HTTP/1.1 server's own connection handler runs only for connections that are not HTTP/2.
  const [serveHttp1] = http.listeners('connection') as Array<(socket: Socket) => void>;
  http.removeAllListeners('connection');
  http.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    let seen = Buffer.alloc(0);
    // A connection that fails or ends before saying which protocol it speaks is dropped.
    const broken = () => socket.destroy();
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const undecided = seen.length < PREFACE.length && PREFACE.subarray(0, seen.length).equals(seen);
      if (undecided) return;
      socket.off('data', onData);
      socket.off('error', broken);
      socket.off('end', broken);
      socket.pause();
      socket.unshift(seen);
      if (seen.subarray(0, PREFACE.length).equals(PREFACE)) http2.emit('connection', socket);
      else {
        serveHttp1!.call(http, socket);
        // The HTTP/1.1 parser reads the socket's handle from here on; the bytes read so far wait in the stream.
        socket.resume();
      }
    };
    socket.on('data', onData);
    socket.on('error', broken);
    socket.on('end', broken);
  });

  // Idle keep-alive connections are kept a minute, not Node's 5 s: a client that sends on a
  // pooled connection just as the server closes it sees ECONNRESET, and under load the SDK's
  // retries met the same race on every pooled connection (closeIdle still closes them at stop).
  http.keepAliveTimeout = 60_000;
  http.headersTimeout = 61_000;
  await new Promise<void>((done, fail) => {
    http.once('error', fail);
    http.listen(port, host, () => {
      http.off('error', fail);
      done();
    });
  });
  const closed = new Promise<void>((done) => http.once('close', () => done()));
  return {
    port: (http.address() as AddressInfo).port,
    closeIdle() {
      http.close();
      http.closeIdleConnections();
      for (const session of sessions) session.close();
    },
    async closeAll() {
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/**
 * A request's headers as HTTP/1.1 has them, for both versions: HTTP/2's pseudo-headers
 * dropped and its `:authority` as `host` (what host-addressed ingress reads).
 */
export function requestHeaders(req: Request): { headers: Record<string, string>; rawHeaders: string[] } {
  if (!isHttp2(req)) return { headers: flattenHeaders(req), rawHeaders: req.rawHeaders };
  const rawHeaders: string[] = [];
  for (let at = 0; at + 1 < req.rawHeaders.length; at += 2) {
    const name = req.rawHeaders[at]!;
    if (name === ':authority' && req.headers.host === undefined)
      rawHeaders.push('host', req.rawHeaders[at + 1]!);
    else if (!name.startsWith(':')) rawHeaders.push(name, req.rawHeaders[at + 1]!);
  }
  const headers: Record<string, string> = {};
  for (let at = 0; at + 1 < rawHeaders.length; at += 2) {
    const name = rawHeaders[at]!.toLowerCase();
    // HTTP/2 may split `cookie` into one field per cookie (RFC 9113 8.2.3).
    const separator = name === 'cookie' ? '; ' : ', ';
    headers[name] =
      name in headers ? `${headers[name]}${separator}${rawHeaders[at + 1]}` : rawHeaders[at + 1]!;
  }
  return { headers, rawHeaders };
}

/** Connection-specific headers, which HTTP/2 forbids (setting one on an HTTP/2 response throws). */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

/** The response headers this connection may carry. */
export function responseHeaders<T>(res: Response, headers: Record<string, T>): Record<string, T> {
  if (!(res instanceof Http2ServerResponse)) return headers;
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !CONNECTION_HEADERS.has(name.toLowerCase())),
  );
}

function isHttp2(req: Request): req is Http2ServerRequest {
  return req.httpVersionMajor >= 2;
}

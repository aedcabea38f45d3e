import http from 'node:http';
import https from 'node:https';
import type { IngressRequest } from '../../../ingress.js';
import type { SandboxResponse } from '../../../request.js';

/** Hop-by-hop headers, and those the client's connection to the gateway owns: never forwarded. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'host',
  'content-length',
]);

const TIMEOUT_MS = 29_000;

/**
 * An HTTP proxy integration: the request goes on to `url` (method, headers, body; the
 * query string when `withQuery`), and the backend's answer comes back as it is. A backend
 * that cannot be reached, or answers too late (API Gateway's 29 seconds), is `failure`.
 */
export function forwardHttp(
  url: string,
  method: string,
  request: IngressRequest,
  failure: () => SandboxResponse,
): Promise<SandboxResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(failure());
  }
  if (request.rawQuery !== '' && target.search === '') target.search = `?${request.rawQuery}`;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!NOT_FORWARDED.has(name)) headers[name] = value;
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const outgoing = client.request(target, { method, headers, timeout: TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => resolve(failure()));
      response.on('end', () => {
        const single: Record<string, string> = {};
        const lists: Record<string, string[]> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value === undefined || NOT_FORWARDED.has(name)) continue;
          if (Array.isArray(value)) lists[name] = value;
          else single[name] = value;
        }
        resolve({
          status: response.statusCode ?? 502,
          headers: single,
          ...(Object.keys(lists).length > 0 ? { headerLists: lists } : {}),
          body: Buffer.concat(chunks),
        });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy());
    outgoing.on('error', () => resolve(failure()));
    outgoing.end(request.body.length > 0 ? request.body : undefined);
  });
}

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'cdkd_ui_token';

/**
 * Whether a request may be answered: its Host names this server on the loopback (so a page
 * of another site reached through DNS rebinding is refused), and it carries the token, as
 * `?token=`, the `x-cdkd-token` header or the cookie the first page load set.
 */
export function checkAccess(
  request: IncomingMessage,
  url: URL,
  expected: { token: string; port: number },
): 'ok' | 'bad-host' | 'no-token' {
  const allowedHosts = [`127.0.0.1:${expected.port}`, `localhost:${expected.port}`];
  if (!allowedHosts.includes(request.headers.host ?? '')) return 'bad-host';
  const offered = [
    url.searchParams.get('token'),
    headerValue(request.headers['x-cdkd-token']),
    cookieValue(request.headers.cookie, TOKEN_COOKIE),
  ];
  return offered.some((token) => token !== undefined && token !== null && sameToken(token, expected.token))
    ? 'ok'
    : 'no-token';
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function sameToken(offered: string, expected: string): boolean {
  const a = Buffer.from(offered);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

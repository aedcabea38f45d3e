import { randomUUID } from 'node:crypto';
import type { SandboxError } from '../errors.js';
import type { SandboxRequest, SandboxResponse } from '../request.js';
import type { Codec } from '../service-module.js';
import { el } from '../xml.js';

const XMLNS = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/**
 * EC2's variant of the query protocol: the same form-encoded `Action=..` input, lists as
 * `Name.N` (`VpcId.1`, `Filter.1.Value.2`), results as `<{Action}Response>` with
 * `<requestId>` and `<item>` lists, and errors as `<Response><Errors><Error>..`.
 */
export const ec2Codec: Codec = {
  protocol: 'query',
  renderError(error: SandboxError, request: SandboxRequest): SandboxResponse {
    const body = el('Response', [
      el('Errors', [el('Error', [el('Code', error.code), el('Message', error.message)])]),
      el('RequestID', request.requestId),
    ]);
    return { status: error.status, headers: { ...error.headers, 'content-type': 'text/xml' }, body };
  },
  newRequestId: randomUUID,
  requestIdHeaders: () => ({}),
};

export function ec2Result(
  action: string,
  content: Array<string | undefined>,
  request: SandboxRequest,
): SandboxResponse {
  const body = el(`${action}Response`, [el('requestId', request.requestId), ...content], `xmlns="${XMLNS}"`);
  return { status: 200, headers: { 'content-type': 'text/xml;charset=UTF-8' }, body };
}

/** `<name><item>..</item>..</name>`: EC2's list shape (an empty list is `<name/>`). */
export function itemSet(name: string, items: Array<Array<string | undefined>>): string {
  return el(
    name,
    items.map((children) => el('item', children)),
  );
}

/** EC2 tags: `<tagSet><item><key/><value/></item></tagSet>`. */
export function tagSet(tags: ReadonlyArray<{ Key: string; Value: string }>): string {
  return itemSet(
    'tagSet',
    tags.map((tag) => [el('key', tag.Key), el('value', tag.Value)]),
  );
}

/** The values of `Name.1`, `Name.2` ... in order. */
export function listParam(params: URLSearchParams, name: string): string[] {
  return indexed(params, name).map((index) => params.get(`${name}.${index}`)!);
}

/** The member structures of `Name.N.*`, each as its own parameter map (`Name.2.IpProtocol` → `IpProtocol`). */
export function structParams(params: URLSearchParams, name: string): URLSearchParams[] {
  const byIndex = new Map<number, URLSearchParams>();
  const prefix = `${name}.`;
  for (const [key, value] of params) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const dot = rest.indexOf('.');
    if (dot < 0) continue;
    const index = Number(rest.slice(0, dot));
    if (!Number.isInteger(index)) continue;
    if (!byIndex.has(index)) byIndex.set(index, new URLSearchParams());
    byIndex.get(index)!.append(rest.slice(dot + 1), value);
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, member]) => member);
}

function indexed(params: URLSearchParams, name: string): number[] {
  const pattern = new RegExp(`^${name.replace(/\./g, '\\.')}\\.(\\d+)$`);
  const indexes: number[] = [];
  for (const key of params.keys()) {
    const match = pattern.exec(key);
    if (match) indexes.push(Number(match[1]));
  }
  return indexes.sort((a, b) => a - b);
}

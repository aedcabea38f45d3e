import type { HttpAnswer } from '../../http-events/types.js';
import { refOf, type Resources } from '../serve/template-refs.js';

/** What a behaviour's response headers policy does to the answers it sends viewers. */
export interface ResponseHeaders {
  /** Headers added: with `override`, in place of the origin's; without, only where the origin sent none. */
  set: Array<{ name: string; value: string; override: boolean }>;
  /** Headers removed from the origin's answer (lower case). */
  remove: string[];
}

/**
 * A behaviour's ResponseHeadersPolicyId: a policy of the stack read into the headers it
 * sets (custom and security headers) and removes; a policy ID the template holds as a
 * string (a managed policy) is not known here: the reason, for the server to say.
 */
export function responseHeadersOf(id: unknown, resources: Resources): ResponseHeaders | string | undefined {
  if (id === undefined) return undefined;
  const logicalId = refOf(id);
  const policy = logicalId ? resources[logicalId] : undefined;
  if (!policy || policy.Type !== 'AWS::CloudFront::ResponseHeadersPolicy') {
    return `response headers policy ${typeof id === 'string' ? id : JSON.stringify(id)} is not one of the stack's (a managed policy is not applied locally)`;
  }
  const config = record(policy.Properties?.ResponseHeadersPolicyConfig);
  const set: ResponseHeaders['set'] = [];
  for (const raw of list(record(config.CustomHeadersConfig).Items)) {
    const item = record(raw);
    if (typeof item.Header === 'string' && item.Value !== undefined)
      set.push({
        name: item.Header.toLowerCase(),
        value: String(item.Value),
        override: item.Override === true,
      });
  }
  set.push(...securityHeaders(record(config.SecurityHeadersConfig)));
  const remove = list(record(config.RemoveHeadersConfig).Items).flatMap((raw) => {
    const header = record(raw).Header;
    return typeof header === 'string' ? [header.toLowerCase()] : [];
  });
  return { set, remove };
}

/** The security headers of a policy, each as CloudFront writes it. */
function securityHeaders(config: Record<string, unknown>): ResponseHeaders['set'] {
  const headers: ResponseHeaders['set'] = [];
  const add = (raw: unknown, name: string, value: (entry: Record<string, unknown>) => string | undefined) => {
    if (raw === undefined) return;
    const entry = record(raw);
    const text = value(entry);
    if (text !== undefined) headers.push({ name, value: text, override: entry.Override === true });
  };
  add(config.StrictTransportSecurity, 'strict-transport-security', (entry) =>
    [
      `max-age=${Number(entry.AccessControlMaxAgeSec)}`,
      ...(entry.IncludeSubdomains === true ? ['includeSubDomains'] : []),
      ...(entry.Preload === true ? ['preload'] : []),
    ].join('; '),
  );
  add(config.ContentTypeOptions, 'x-content-type-options', () => 'nosniff');
  add(config.FrameOptions, 'x-frame-options', (entry) =>
    typeof entry.FrameOption === 'string' ? entry.FrameOption : undefined,
  );
  add(config.ReferrerPolicy, 'referrer-policy', (entry) =>
    typeof entry.ReferrerPolicy === 'string' ? entry.ReferrerPolicy : undefined,
  );
  add(config.ContentSecurityPolicy, 'content-security-policy', (entry) =>
    typeof entry.ContentSecurityPolicy === 'string' ? entry.ContentSecurityPolicy : undefined,
  );
  add(config.XSSProtection, 'x-xss-protection', (entry) =>
    entry.Protection !== true
      ? '0'
      : [
          '1',
          ...(entry.ModeBlock === true ? ['mode=block'] : []),
          ...(typeof entry.ReportUri === 'string' ? [`report=${entry.ReportUri}`] : []),
        ].join('; '),
  );
  return headers;
}

/** The answer as the viewer gets it: the policy's headers removed and added. */
export function withResponseHeaders(answer: HttpAnswer, policy: ResponseHeaders): HttpAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {}))
    if (!policy.remove.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  for (const header of policy.set)
    if (header.override || headers[header.name] === undefined) headers[header.name] = header.value;
  const lists = Object.entries(answer.headerLists ?? {}).filter(
    ([name]) => !policy.remove.includes(name.toLowerCase()),
  );
  return { ...answer, headers, ...(answer.headerLists ? { headerLists: Object.fromEntries(lists) } : {}) };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

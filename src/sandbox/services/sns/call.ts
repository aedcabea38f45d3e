import type { SandboxRequest } from '../../request.js';
import type { SandboxContext } from '../../service-module.js';
import { el } from '../../xml.js';
import { snsErrors } from './sns-errors.js';
import type { SnsStore, TopicRecord } from './store.js';

export interface SnsCall {
  store: SnsStore;
  context: SandboxContext;
  accountId: string;
  request: SandboxRequest;
  params: URLSearchParams;
}

/** A handler returns the children of `<{Action}Result>`. */
export type SnsHandler = (call: SnsCall) => Promise<string[]>;

export function requireTopic(call: SnsCall, arn: string | null): TopicRecord {
  const topic = arn ? call.store.topics.get(arn) : undefined;
  if (!topic) throw snsErrors.topicNotFound();
  return topic;
}

/** `<Name><entry><key/><value/></entry>...</Name>`, the query protocol's map shape. */
export function entries(name: string, map: Record<string, string>): string {
  return el(
    name,
    Object.entries(map).map(([key, value]) => el('entry', [el('key', key), el('value', value)])),
  );
}

export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

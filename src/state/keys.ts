/** Where each stack's documents live in the state bucket: `{prefix}/{stack}/{region}/...`. */
export interface StackStateKeys {
  state: string;
  lock: string;
  journal: string;
  eventsPrefix: string;
  /** Where custom resource handlers answer, one object per request. */
  customResourceResponsesPrefix: string;
}

export const DEFAULT_STATE_PREFIX = 'cdkd';

export function stackStateKeys(prefix: string, stackName: string, region: string): StackStateKeys {
  const base = `${trimSlashes(prefix)}/${stackName}/${region}`;
  return {
    state: `${base}/state.json`,
    lock: `${base}/lock.json`,
    journal: `${base}/rollback-journal.json`,
    eventsPrefix: `${base}/events/`,
    customResourceResponsesPrefix: `${base}/custom-resource-responses/`,
  };
}

/** The stack and region a `.../state.json` key belongs to, or undefined for any other key. */
export function parseStateKey(
  prefix: string,
  key: string,
): { stackName: string; region: string } | undefined {
  const head = `${trimSlashes(prefix)}/`;
  if (!key.startsWith(head)) return undefined;
  const parts = key.slice(head.length).split('/');
  if (parts.length !== 3 || parts[2] !== 'state.json' || !parts[0] || !parts[1]) return undefined;
  return { stackName: parts[0], region: parts[1] };
}

/** `us-east-1`, `us-gov-west-1`, `cn-north-1`: what a region segment of a key looks like. */
const REGION = /^[a-z]{2,}(-[a-z]+)+-\d+$/;

/**
 * Any `file` (by default `state.json`) under the prefix: a top-level stack's
 * (`{stack}/{region}`), a nested one's at any depth (`{stack}/{child}/{region}`), or a legacy
 * document that names no region (`{stack}/{file}`). Undefined for every other key.
 */
export function parseAnyStateKey(
  prefix: string,
  key: string,
  file = 'state.json',
): { stackName: string; region: string } | { legacyStackName: string } | undefined {
  const head = `${trimSlashes(prefix)}/`;
  if (!key.startsWith(head)) return undefined;
  const parts = key.slice(head.length).split('/');
  if (parts.at(-1) !== file || parts.some((part) => part === '')) return undefined;
  if (parts.length === 2) return { legacyStackName: parts[0]! };
  const region = parts.at(-2)!;
  if (parts.length < 3 || !REGION.test(region)) return undefined;
  return { stackName: parts.slice(0, -2).join('/'), region };
}

function trimSlashes(prefix: string): string {
  return prefix.replace(/^\/+|\/+$/g, '');
}

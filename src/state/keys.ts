/** Where each stack's documents live in the state bucket: `{prefix}/{stack}/{region}/...`. */
export interface StackStateKeys {
  state: string;
  lock: string;
  journal: string;
  eventsPrefix: string;
}

export const DEFAULT_STATE_PREFIX = 'cdkd';

export function stackStateKeys(prefix: string, stackName: string, region: string): StackStateKeys {
  const base = `${trimSlashes(prefix)}/${stackName}/${region}`;
  return {
    state: `${base}/state.json`,
    lock: `${base}/lock.json`,
    journal: `${base}/rollback-journal.json`,
    eventsPrefix: `${base}/events/`,
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

function trimSlashes(prefix: string): string {
  return prefix.replace(/^\/+|\/+$/g, '');
}

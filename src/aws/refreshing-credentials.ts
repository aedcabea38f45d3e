/** Credentials as the SDK's providers hand them out (`expiration` on temporary ones). */
export interface ExpiringCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

export interface RefreshSettings {
  /** Asked again this long before they expire (default five minutes, as the SDK's clients do). */
  refreshBeforeMs?: number;
  now?: () => number;
}

const FIVE_MINUTES = 5 * 60_000;

/**
 * One provider for every client of a role: its credentials are fetched once, shared, and
 * fetched again when they come within `refreshBeforeMs` of expiring, so a run longer than
 * a session (an hour by default) keeps working and a role is assumed once per session, not
 * once per SDK client. A failed fetch is not kept: the next call asks again.
 */
export function refreshingCredentials<C extends ExpiringCredentials>(
  fetch: () => Promise<C>,
  settings: RefreshSettings = {},
): () => Promise<C> {
  const refreshBeforeMs = settings.refreshBeforeMs ?? FIVE_MINUTES;
  const now = settings.now ?? Date.now;
  let held: { promise: Promise<C>; value?: C } | undefined;
  const stale = (value: C) =>
    value.expiration !== undefined && value.expiration.getTime() - now() <= refreshBeforeMs;
  return () => {
    if (!held || (held.value && stale(held.value))) {
      const entry: { promise: Promise<C>; value?: C } = { promise: fetch() };
      held = entry;
      entry.promise.then(
        (value) => {
          entry.value = value;
        },
        () => {
          if (held === entry) held = undefined;
        },
      );
    }
    return held.promise;
  };
}

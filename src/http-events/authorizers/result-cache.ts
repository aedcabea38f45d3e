/**
 * Lambda authorizer results kept per authorizer and identity (the identity sources' values)
 * for the authorizer's TTL, as API Gateway caches them: a cached policy is evaluated again
 * for each request, so a policy naming one method denies the others until it expires.
 */
export class AuthorizerResultCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  get(authorizerId: string, identity: readonly string[], now: number): T | undefined {
    const key = cacheKey(authorizerId, identity);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  put(authorizerId: string, identity: readonly string[], value: T, ttlSeconds: number, now: number): void {
    if (ttlSeconds <= 0) return;
    this.entries.set(cacheKey(authorizerId, identity), { value, expiresAt: now + ttlSeconds * 1000 });
  }
}

function cacheKey(authorizerId: string, identity: readonly string[]): string {
  return JSON.stringify([authorizerId, ...identity]);
}

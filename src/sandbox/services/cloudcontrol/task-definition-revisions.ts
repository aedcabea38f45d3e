/**
 * ECS numbers a family's task definitions 1, 2, 3 ... and never reuses a number, even for one
 * deregistered. The sandbox counts per account, region and family in memory; ECS's own calls
 * raise the count to the store's highest first (`noteRevision`), so a restarted sandbox with
 * persisted task definitions carries on after them.
 */
const highest = new Map<string, number>();

const key = (accountId: string, region: string, family: string) => `${accountId}/${region}/${family}`;

export function noteRevision(accountId: string, region: string, family: string, revision: number): void {
  const at = key(accountId, region, family);
  highest.set(at, Math.max(highest.get(at) ?? 0, revision));
}

export function nextRevision(accountId: string, region: string, family: string): number {
  const at = key(accountId, region, family);
  const next = (highest.get(at) ?? 0) + 1;
  highest.set(at, next);
  return next;
}

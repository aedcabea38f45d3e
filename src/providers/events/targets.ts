import type { Target } from '@aws-sdk/client-eventbridge';

/** Which targets to remove (by Id) and which to put, going from `before` to `after`. */
export function targetChanges(before: unknown, after: unknown): { remove: string[]; put: Target[] } {
  const list = (value: unknown) => (value as Target[] | undefined) ?? [];
  const old = new Map(list(before).map((target) => [target.Id!, JSON.stringify(target)]));
  const next = list(after);
  const ids = new Set(next.map((target) => target.Id!));
  return {
    remove: [...old.keys()].filter((id) => !ids.has(id)),
    put: next.filter((target) => old.get(target.Id!) !== JSON.stringify(target)),
  };
}

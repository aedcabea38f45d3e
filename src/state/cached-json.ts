/**
 * JSON text for documents rewritten after every resource while only a few of their parts
 * change: each part's text is kept per object, so a save costs the changed parts and a join.
 * The output is exactly `JSON.stringify(document)` as long as a cached object is not changed
 * after its text was kept: callers replace such objects, or `forget` them before changing them.
 */
export class JsonFragments {
  private texts = new WeakMap<object, string>();

  text(value: object): string {
    let text = this.texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      this.texts.set(value, text);
    }
    return text;
  }

  forget(value: object): void {
    this.texts.delete(value);
  }

  /** For a document changed by code that does not follow the rule above. */
  forgetAll(): void {
    this.texts = new WeakMap();
  }
}

/** A member's text, or undefined to serialize it as JSON.stringify would. */
type MemberText = (key: string, value: unknown) => string | undefined;

/** `JSON.stringify(object)` (a plain object), with the members `member` answers taken from it. */
export function objectJson(object: object, member: MemberText): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    const text = member(key, value) ?? (JSON.stringify(value) as string | undefined);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** `JSON.stringify(items)`, each item's text from `item`. */
export function arrayJson<T>(items: readonly T[], item: (value: T) => string): string {
  return `[${items.map(item).join(',')}]`;
}

/**
 * Tests set CDKD_VERIFY_CACHED_JSON: each document built from cached fragments is compared
 * with a fresh JSON.stringify, so a change made to an object after its text was cached
 * fails the test whose code made it instead of silently writing the old text.
 */
export function verifiedJson(built: string, document: unknown, name: string): string {
  if (process.env.CDKD_VERIFY_CACHED_JSON !== 'true') return built;
  const fresh = JSON.stringify(document);
  if (built !== fresh) {
    let at = 0;
    while (built[at] === fresh[at]) at += 1;
    throw new Error(
      `The cached JSON of the ${name} document is stale from character ${at}: "${built.slice(at, at + 80)}" where it is now "${fresh.slice(at, at + 80)}" (an object was changed after its text was cached; replace it instead).`,
    );
  }
  return built;
}

/**
 * JSON text for documents rewritten after every resource while only a few of their parts
 * change: each part's text is kept per object, so a save costs the changed parts and one
 * concatenation instead of a JSON.stringify of the whole document (about half the time).
 * The output is exactly `JSON.stringify(document)` as long as a cached object is not changed
 * after its text was kept: callers replace such objects, or `forget` them before changing them.
 */
export class JsonFragments {
  private texts = new WeakMap<object, { key: string | undefined; text: string }>();

  /** `value`'s JSON text, led by `"key":` when it is a member of an object. */
  text(value: object, key?: string): string {
    let kept = this.texts.get(value);
    if (kept === undefined || kept.key !== key) {
      const json = JSON.stringify(value);
      kept = { key, text: key === undefined ? json : `${JSON.stringify(key)}:${json}` };
      this.texts.set(value, kept);
    }
    return kept.text;
  }

  forget(value: object): void {
    this.texts.delete(value);
  }

  /** For a document changed by code that does not follow the rule above. */
  forgetAll(): void {
    this.texts = new WeakMap();
  }
}

/** A member's `"key":value` text, or undefined to serialize it as JSON.stringify would. */
type MemberText = (key: string, value: unknown) => string | undefined;

/** `JSON.stringify(object)` (a plain object), with the members `member` answers taken from it. */
export function objectJson(object: object, member: MemberText): string {
  let json = '';
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const value = (object as Record<string, unknown>)[key];
    let text = member(key, value);
    if (text === undefined) {
      const valueJson = JSON.stringify(value) as string | undefined;
      if (valueJson === undefined) continue;
      text = `${JSON.stringify(key)}:${valueJson}`;
    }
    json += json === '' ? text : `,${text}`;
  }
  return `{${json}}`;
}

/** `JSON.stringify(items)`, each item's text from `item`. */
export function arrayJson<T>(items: readonly T[], item: (value: T) => string): string {
  let json = '';
  for (let index = 0; index < items.length; index += 1) {
    json += index === 0 ? item(items[index]!) : `,${item(items[index]!)}`;
  }
  return `[${json}]`;
}

/** `JSON.stringify(record)` of a string-keyed map, each member's text cached by its value object. */
export function mapJson(record: Record<string, object>, fragments: JsonFragments): string {
  return objectJson(record, (key, value) => fragments.text(value as object, key));
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

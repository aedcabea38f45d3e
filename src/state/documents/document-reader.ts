import type * as z from 'zod';
import { CdkdError } from '../../errors.js';

/**
 * Turns the raw text of a stored document into a validated, current-version
 * value. A torn, truncated, hand-edited or too-new document is a CdkdError
 * naming the object key and what to do, never a crash.
 */
export interface DocumentKind<T> {
  /** Human name, e.g. "state" or "lock". */
  name: string;
  currentVersion: number;
  schema: z.ZodType<T>;
  /** Upgrades an older document, one version at a time; key = the version it upgrades from. */
  migrations: Record<number, (document: Record<string, unknown>) => Record<string, unknown>>;
  /** What a user can do about a document that cannot be read. */
  repairHint: (key: string) => string;
}

/** `key` is the document's location as shown to the user, e.g. `s3://bucket/cdkd/Stack/us-east-1/state.json`. */
export function parseDocument<T>(kind: DocumentKind<T>, key: string, text: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw unreadable(kind, key, `it is not valid JSON (${(cause as Error).message})`, cause);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw unreadable(kind, key, 'it is not a JSON object');
  }
  const migrated = migrate(kind, key, raw as Record<string, unknown>);
  const result = kind.schema.safeParse(migrated);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(document)';
    throw unreadable(kind, key, `${where}: ${issue?.message ?? 'invalid'}`, result.error);
  }
  return result.data;
}

function migrate(kind: DocumentKind<unknown>, key: string, document: Record<string, unknown>) {
  let version = document.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw unreadable(kind, key, 'its "version" field is missing or not a positive integer');
  }
  if (version > kind.currentVersion) {
    throw new CdkdError(
      'STATE_VERSION_UNSUPPORTED',
      `The ${kind.name} document ${key} has version ${version}; this cdkd reads up to version ${kind.currentVersion}.`,
      { hint: 'A newer cdkd wrote it: upgrade cdkd to work with this stack.' },
    );
  }
  let current = document;
  while (version < kind.currentVersion) {
    const step = kind.migrations[version];
    if (!step) throw unreadable(kind, key, `no migration from version ${version}`);
    current = step(current);
    version += 1;
    current = { ...current, version };
  }
  return current;
}

function unreadable(kind: DocumentKind<unknown>, key: string, reason: string, cause?: unknown): CdkdError {
  return new CdkdError(
    'STATE_DOCUMENT_INVALID',
    `The ${kind.name} document ${key} cannot be read: ${reason}.`,
    {
      hint: kind.repairHint(key),
      cause,
    },
  );
}

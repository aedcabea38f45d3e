import { MASK } from '../template/index.js';

/**
 * The secret strings a resource was sent: wherever the stored properties hold the mask (a
 * NoEcho parameter, a NoEcho custom resource's Data), the clear text the same place held,
 * narrowed to the masked parts when the mask sits inside a longer string (`Fn::Join`, `Fn::Sub`).
 */
export function maskedSecrets(properties: unknown, stored: unknown): string[] {
  const found = new Set<string>();
  collect(properties, stored, found);
  return [...found];
}

function collect(sent: unknown, stored: unknown, found: Set<string>): void {
  if (typeof stored === 'string') {
    if (typeof sent === 'string' && stored.includes(MASK) && sent !== stored) {
      for (const secret of secretParts(sent, stored)) found.add(secret);
    }
    return;
  }
  if (Array.isArray(stored)) {
    if (Array.isArray(sent)) stored.forEach((item, index) => collect(sent[index], item, found));
    return;
  }
  if (stored !== null && typeof stored === 'object' && sent !== null && typeof sent === 'object') {
    for (const [key, value] of Object.entries(stored))
      collect((sent as Record<string, unknown>)[key], value, found);
  }
}

/** What each mask in `stored` stands for in `sent`; the whole of `sent` when they do not line up. */
function secretParts(sent: string, stored: string): string[] {
  const literals = stored.split(MASK).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const match = new RegExp(`^${literals.join('(.+?)')}$`, 's').exec(sent);
  const parts = match ? match.slice(1) : [sent];
  return parts.filter((part) => part.length > 0);
}

/** `value` with every occurrence of a secret masked: what AWS echoed of what was sent masked. */
export function maskEchoes<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  // Longest first, so a secret holding another is masked whole.
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  return scrub(value, ordered) as T;
}

function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    return secrets.reduce((text, secret) => text.split(secret).join(MASK), value);
  }
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, secrets)]));
  }
  return value;
}

/** A read-back with every value the recorded properties hold masked (`***`) masked too. */
export function maskedReadBack(
  live: Record<string, unknown>,
  recorded: Record<string, unknown>,
): Record<string, unknown> {
  return maskEchoes(live, maskedSecrets(live, recorded));
}

/**
 * Spec 001: "a value shorter than 4 characters can appear inside a longer log line": masking
 * one that short would rewrite unrelated words of the message.
 */
const SHORTEST_MASKED_IN_TEXT = 4;

/**
 * Masks, in place, every secret a resource was sent wherever an error from its provider call
 * echoes it (ARCHITECTURE invariant 10): the message, the stack, and the causes' too. Done
 * before the error reaches the retry's give-up line, the journal, the events or the CLI.
 */
export function maskErrorEchoes(error: unknown, secrets: readonly string[]): void {
  const masked = secrets.filter((secret) => secret.length >= SHORTEST_MASKED_IN_TEXT);
  if (masked.length === 0) return;
  const seen = new Set<unknown>();
  for (let at: unknown = error; at instanceof Error && !seen.has(at); at = at.cause) {
    seen.add(at);
    at.message = maskEchoes(at.message, masked);
    if (at.stack) at.stack = maskEchoes(at.stack, masked);
  }
}

/** `call`, with any error it throws masked of `secrets` (see maskErrorEchoes). */
export function maskingErrors<A extends unknown[], T>(
  secrets: readonly string[],
  call: (...args: A) => Promise<T>,
): (...args: A) => Promise<T> {
  if (secrets.length === 0) return call;
  return (...args) =>
    call(...args).catch((error: unknown) => {
      maskErrorEchoes(error, secrets);
      throw error;
    });
}

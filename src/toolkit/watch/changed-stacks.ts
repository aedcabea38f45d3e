import { createHash } from 'node:crypto';
import type { StackArtifact } from '../../assembly/index.js';

/**
 * What a stack deploys from, reduced to one hash: its template, the parameters the assembly
 * passes, its tags and termination protection, and the hashes of its assets (a file asset
 * whose template reference is unchanged still deploys new code when its content changed).
 * Paths are left out: the same asset synthesized again lands in the same place anyway.
 */
export function stackFingerprint(stack: StackArtifact): string {
  const assets = stack.assetManifests
    .flatMap((manifest) => [
      ...manifest.files.map((file) => `file:${file.hash}`),
      ...manifest.containers.map((image) => `image:${image.hash}`),
    ])
    .sort();
  return createHash('sha256')
    .update(
      canonicalJson({
        template: stack.template,
        parameters: stack.parameters,
        tags: stack.tags,
        terminationProtection: stack.terminationProtection,
        assets,
      }),
    )
    .digest('hex');
}

/**
 * The stacks to deploy after a synthesis: each selected stack (by display name, in the order
 * given) whose fingerprint differs from the one it was last deployed with, or that has none (not
 * deployed in this watch yet, or its last deploy failed). A stack that left the app is not
 * deployed; nothing is destroyed.
 */
export function changedStacks(
  deployed: ReadonlyMap<string, string>,
  current: ReadonlyArray<{ displayName: string; fingerprint: string }>,
): string[] {
  return current
    .filter((stack) => deployed.get(stack.displayName) !== stack.fingerprint)
    .map((stack) => stack.displayName);
}

/** JSON with object keys sorted, so two equal values hash alike whatever order the app wrote. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

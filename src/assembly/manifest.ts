import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Manifest, VERSION_MISMATCH, type AssemblyManifest } from '@aws-cdk/cloud-assembly-schema';
import { CdkdError } from '../errors.js';
import { MANIFEST_FILE } from './manifest-file.js';

// Still importable from here; light modules import them from manifest-file.js, which loads no schema library.
export { isAssemblyDirectory, MANIFEST_FILE } from './manifest-file.js';

/**
 * Reads and version-checks `dir/manifest.json`. The schema library's own errors
 * quote the whole file or a semver stack, so each failure becomes one clear CdkdError.
 */
export function loadAssemblyManifest(dir: string): AssemblyManifest {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) {
    throw new CdkdError('ASSEMBLY_NOT_FOUND', `No cloud assembly in ${dir}: ${MANIFEST_FILE} is missing.`, {
      hint: 'Point -a/--app at a directory written by `cdk synth` (usually cdk.out), or at the app command.',
    });
  }
  parseJsonFile(file, 'cloud assembly manifest');
  try {
    return Manifest.loadAssemblyManifest(file);
  } catch (cause) {
    const text = cause instanceof Error ? cause.message : String(cause);
    if (text.startsWith(VERSION_MISMATCH)) {
      const found = /found (\S+?)(?:\.\s|\.?$)/.exec(text)?.[1] ?? 'unknown';
      throw new CdkdError(
        'ASSEMBLY_VERSION_UNSUPPORTED',
        `The cloud assembly in ${dir} was written by a newer CDK (schema ${found}, cdkd reads up to ${Manifest.version()}).`,
        { hint: 'Upgrade cdkd, or synthesize with an aws-cdk-lib version that cdkd supports.', cause },
      );
    }
    throw new CdkdError(
      'ASSEMBLY_MALFORMED',
      `The cloud assembly manifest ${file} is not valid: ${firstLine(text)}`,
      {
        hint: 'Re-synthesize the app; the manifest may be truncated or hand-edited.',
        cause,
      },
    );
  }
}

/** Parses a JSON file of the assembly, naming the file (never quoting its content) on failure. */
export function parseJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new CdkdError('ASSEMBLY_MALFORMED', `Cannot read the ${what} ${file}.`, {
      hint: 'Re-synthesize the app so the cloud assembly is complete.',
      cause,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new CdkdError(
      'ASSEMBLY_MALFORMED',
      `The ${what} ${file} is not valid JSON: ${firstLine(String(cause))}`,
      {
        hint: 'Re-synthesize the app; the file may be truncated or hand-edited.',
        cause,
      },
    );
  }
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

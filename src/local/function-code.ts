import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin, realpathOrUndefined } from '../assembly/paths.js';
import { CdkdError } from '../errors.js';
import type { LocalFunction } from './function-target.js';

export interface LocalCode {
  /** The directory the handler loads from (LAMBDA_TASK_ROOT). */
  taskRoot: string;
  /** A warning to show: an absolute asset path outside the output directory. */
  warning?: string;
  /** True for inline code written to a temp directory, which the caller removes. */
  temporary?: boolean;
}

/**
 * Where a function's code is on this machine: its asset directory (`aws:asset:path`,
 * against the stack's assembly directory) or its inline `Code.ZipFile`, written as the
 * handler's module in a temp directory. The path rule of the cloud assembly checks applies:
 * a relative asset path leaving the output directory is refused before anything runs, an
 * absolute one outside it is accepted with a warning (`cdk synth --no-staging` writes those).
 */
export function localCode(fn: LocalFunction, outputDir: string, name: string, extension = '.js'): LocalCode {
  const code = (fn.properties.Code ?? {}) as Record<string, unknown>;
  if (typeof code.ZipFile === 'string')
    return { taskRoot: inlineCode(code.ZipFile, fn, name, extension), temporary: true };
  const raw = fn.metadata['aws:asset:path'];
  if (typeof raw !== 'string') {
    throw new CdkdError(
      'LOCAL_CODE_UNAVAILABLE',
      `Function ${name} has no code on this machine: neither inline code nor an asset path (aws:asset:path).`,
      {
        hint: 'Synthesize with asset metadata on (cdkd synth does), with the code from Code.fromAsset or Code.fromInline.',
      },
    );
  }
  const found = assetDirectory(raw, fn.stack.assemblyDir, outputDir, name);
  return { taskRoot: found.path, ...(found.warning ? { warning: found.warning } : {}) };
}

/**
 * An `aws:asset:path` as a directory on this machine, against the manifest's directory: a
 * relative path leaving the output directory is refused before anything uses it, an absolute
 * one outside it is accepted with a warning (`cdk synth --no-staging` writes those).
 */
export function assetDirectory(
  raw: string,
  assemblyDir: string,
  outputDir: string,
  name: string,
): { path: string; warning?: string } {
  const path = resolve(assemblyDir, raw);
  const outputReal = realpathOrUndefined(outputDir) ?? outputDir;
  const inside = isWithin(outputDir, path) || isWithin(outputReal, realpathOrUndefined(path) ?? path);
  if (!isAbsolute(raw) && !isWithin(outputDir, path)) {
    throw new CdkdError(
      'ASSET_PATH_ESCAPES',
      `Function ${name}: aws:asset:path "${raw}" resolves to ${path}, outside the output directory ${outputDir}.`,
      { hint: 'Re-synthesize the app; CDK stages every asset inside the output directory.' },
    );
  }
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CdkdError(
      'LOCAL_CODE_UNAVAILABLE',
      `Function ${name}: its code directory ${path} does not exist.`,
      {
        hint: 'Re-synthesize the app so the cloud assembly holds the asset.',
      },
    );
  }
  return {
    path,
    ...(inside
      ? {}
      : {
          warning: `Function ${name}: aws:asset:path "${raw}" is outside the output directory ${outputDir}; its code runs from there.`,
        }),
  };
}

/** An inline handler as a file: `<module>.js` (`.py`) in a temp directory, as Lambda unpacks `Code.ZipFile`. */
function inlineCode(source: string, fn: LocalFunction, name: string, extension: string): string {
  const handler = typeof fn.properties.Handler === 'string' ? fn.properties.Handler : 'index.handler';
  const module = handler.slice(0, handler.lastIndexOf('.'));
  const dir = mkdtempSync(join(tmpdir(), 'cdkd-local-'));
  const file = resolve(dir, `${module}${extension}`);
  if (module === '' || !isWithin(dir, file)) {
    throw new CdkdError(
      'ASSET_PATH_ESCAPES',
      `Function ${name}: its Handler "${handler}" names a module outside the directory its inline code is written to.`,
      { hint: 'Use a handler such as index.handler for inline code.' },
    );
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  return dir;
}

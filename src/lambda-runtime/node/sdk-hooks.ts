import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { SdkCache, sdkPackageOf, type SdkSettings } from './sdk-cache.js';

/**
 * The ESM resolve hook of a function's process (registered by sdk-resolution.ts): an
 * `@aws-sdk/*` import nothing else resolves is resolved from the SDK cache, installed there
 * on first use. Runs on Node's hooks thread; notices go to the main thread through `port`.
 */
let cache: SdkCache | undefined;

export function initialize(data: { settings: SdkSettings; port: MessagePort }): void {
  cache = new SdkCache(data.settings, (text) => data.port.postMessage(text));
}

interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}
type NextResolve = (specifier: string, context?: ResolveContext) => Promise<unknown>;

export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const name = sdkPackageOf(specifier);
    if (!name || !cache || (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const folder = cache.folderFor(name);
    if (!folder) throw error;
    return nextResolve(specifier, {
      ...context,
      parentURL: pathToFileURL(join(folder, 'package.json')).href,
    });
  }
}

import Module, { register } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { SdkCache, sdkPackageOf, type SdkSettings } from './sdk-cache.js';

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;

/**
 * Inside a function's process: an `@aws-sdk/*` package neither the code nor the sandbox has
 * is installed into the cache on first use and loaded from there, by `require` (the CommonJS
 * resolver) and by `import` (an ESM resolve hook, sdk-hooks.ts). What cannot be installed
 * fails as Node fails it ("Cannot find module"), the reason told through `notice`. Returns
 * what delivers the hooks thread's notices still queued: called before an invocation's
 * result is sent, so they are told ahead of it.
 */
export function resolveSdkFromCache(settings: SdkSettings, notice: (text: string) => void): () => void {
  const cache = new SdkCache(settings, notice);
  const modules = Module as unknown as { _resolveFilename: ResolveFilename };
  const resolveFilename = modules._resolveFilename;
  modules._resolveFilename = function (request, parent, isMain, options) {
    try {
      return resolveFilename.call(this, request, parent, isMain, options);
    } catch (error) {
      const name = sdkPackageOf(request);
      if (!name || (error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
      const folder = cache.folderFor(name);
      if (!folder) throw error;
      return resolveFilename.call(this, request, parent, isMain, { paths: [folder] });
    }
  };
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (text: string) => notice(text));
  port1.unref();
  // The hooks module beside this one: .ts from the sources (tests), .js from the build.
  const hooks = new URL(`./sdk-hooks${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  register(hooks, { data: { settings, port: port2 }, transferList: [port2] });
  return () => {
    for (let queued = receiveMessageOnPort(port1); queued; queued = receiveMessageOnPort(port1)) {
      notice(queued.message as string);
    }
  };
}

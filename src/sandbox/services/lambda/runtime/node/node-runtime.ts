import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Launch, RuntimeLayout } from '../launch.js';

/** `nodejsN.x` from nodejs16.x on: all run on the Node.js that runs the sandbox. */
export const NODE_RUNTIME = /^nodejs(\d+)\.x$/;
const OLDEST_MAJOR = 16;

export function isNodeRuntime(runtime: string): boolean {
  const major = NODE_RUNTIME.exec(runtime)?.[1];
  return major !== undefined && Number(major) >= OLDEST_MAJOR;
}

/**
 * The command that starts a Node.js function: the compiled bootstrap next to this file,
 * or (running from sources, in tests) the TypeScript one through tsx's ESM loader.
 */
export function nodeLaunch(layout: RuntimeLayout): Launch {
  const compiled = fileURLToPath(new URL('./bootstrap.js', import.meta.url));
  const args = existsSync(compiled)
    ? [compiled]
    : [
        '--import',
        pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href,
        fileURLToPath(new URL('./bootstrap.ts', import.meta.url)),
      ];
  // Layers' `nodejs/node_modules` (later layers first: they overwrite earlier ones in /opt).
  const nodePath = layout.layers
    .slice()
    .reverse()
    .flatMap((layer) => [`${layer}/nodejs/node20/node_modules`, `${layer}/nodejs/node_modules`]);
  return {
    command: process.execPath,
    args,
    env: nodePath.length > 0 ? { NODE_PATH: nodePath.join(':') } : {},
  };
}

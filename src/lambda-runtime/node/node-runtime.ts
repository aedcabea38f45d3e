import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FROM_SOURCES, PACKAGE_ROOT } from '../../package-root.js';
import type { Launch, RuntimeLayout } from '../launch.js';
import { SDK_SETTINGS_VARIABLE } from './sdk-cache.js';

/** `nodejsN.x` from nodejs16.x on: all run on the Node.js that runs the sandbox. */
export const NODE_RUNTIME = /^nodejs(\d+)\.x$/;
const OLDEST_MAJOR = 16;

export function isNodeRuntime(runtime: string): boolean {
  const major = NODE_RUNTIME.exec(runtime)?.[1];
  return major !== undefined && Number(major) >= OLDEST_MAJOR;
}

const BOOTSTRAP = 'lambda-runtime/node/bootstrap';

/**
 * The command that starts a Node.js function: the compiled bootstrap, or (running from
 * sources, in tests) the TypeScript one through tsx's ESM loader. Found from the package's
 * folder, since the bundled CLI does not sit where this file was built.
 */
export function nodeLaunch(layout: RuntimeLayout): Launch {
  const args = FROM_SOURCES
    ? [
        '--import',
        pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href,
        join(PACKAGE_ROOT, 'src', `${BOOTSTRAP}.ts`),
      ]
    : [join(PACKAGE_ROOT, 'dist', `${BOOTSTRAP}.js`)];
  // Layers' `nodejs/node_modules` (later layers first: they overwrite earlier ones in /opt).
  const nodePath = layout.layers
    .slice()
    .reverse()
    .flatMap((layer) => [`${layer}/nodejs/node20/node_modules`, `${layer}/nodejs/node_modules`]);
  return {
    command: process.execPath,
    args,
    env: {
      ...(nodePath.length > 0 ? { NODE_PATH: nodePath.join(':') } : {}),
      ...(layout.sdk ? { [SDK_SETTINGS_VARIABLE]: JSON.stringify(layout.sdk) } : {}),
    },
  };
}

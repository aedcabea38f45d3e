// Every AWS call the custom-resource handlers bundled in the installed aws-cdk-lib make: a
// walk over the package's handler code (everything but its tests and its construct library),
// plus the calls AwsCustomResource is asked for by aws-cdk-lib's constructs and by the corpus.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  AWS_CUSTOM_RESOURCE_FAMILY,
  constructCalls,
  corpusCalls,
  exampleAppCalls,
} from './aws-custom-resource.js';
import { extractJs } from './js-handlers.js';
import { extractPython } from './python-handlers.js';
import { cdkLib } from './sdk-clients.js';
import type { Extraction, FoundCall, GenericHandler } from './types.js';

/** What marks a file as handler code that may call AWS. */
const HANDLER_MARK = /@aws-sdk\/client-|@aws-sdk\/credential-providers|boto3|awscli|\[\s*['"]aws['"]/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'test') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(js|py)$/.test(entry.name) && !entry.name.endsWith('.generated.js')) yield path;
  }
}

/** A handler's family: its folder under `custom-resource-handlers/dist` (or a module's `lib/dist`). */
export function familyOf(relativePath: string): string {
  const parts = relativePath.split(sep);
  const dist = parts.indexOf('dist');
  if (parts[0] === 'custom-resource-handlers' && dist === 1) return parts.slice(2, 4).join('/');
  if (dist >= 0 && parts[dist - 1] === 'lib') return parts.slice(dist + 1, dist + 3).join('/');
  return parts.slice(0, -1).join('/');
}

/** Every handler folder the package bundles, calls or not. */
export function handlerFamilies(dir: string): string[] {
  const dist = join(dir, 'custom-resource-handlers', 'dist');
  const families = readdirSync(dist, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((module) =>
      readdirSync(join(dist, module.name), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${module.name}/${entry.name}`),
    );
  const core = join(dir, 'core', 'lib', 'dist', 'core');
  families.push(
    ...readdirSync(core, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `core/${entry.name}`),
  );
  return families.sort();
}

/** The calls of the bundled handlers, of aws-cdk-lib's own AwsCustomResources and of the example apps (no corpus). */
export function extractBundled(): Extraction & { version: string; families: string[] } {
  const { dir, version } = cdkLib();
  const calls: FoundCall[] = [];
  const generic: GenericHandler[] = [];
  for (const file of sourceFiles(dir)) {
    const code = readFileSync(file, 'utf8');
    if (!HANDLER_MARK.test(code)) continue;
    const source = relative(dir, file);
    const family = familyOf(source);
    if (file.endsWith('.py')) {
      calls.push(...extractPython(code, family, source));
    } else {
      const found = extractJs(code, family, source);
      calls.push(...found.calls);
      if (found.generic) generic.push(found.generic);
    }
  }
  calls.push(...constructCalls(dir), ...exampleAppCalls());
  const families = [
    ...new Set([...handlerFamilies(dir), ...calls.map((c) => c.family), AWS_CUSTOM_RESOURCE_FAMILY]),
  ];
  return { calls, generic, version, families: families.sort() };
}

export { corpusCalls };

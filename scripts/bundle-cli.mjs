// Bundles the compiled CLI (dist/cli/main.js and everything it imports from dist/) into
// dist/cli/bundle/, one file per lazily imported part, and turns dist/cli/main.js into a
// one-line entry that loads it. Node resolves, reads and links a few dozen files instead of
// about 200 on every command (bench/cli-start.ts, bench/noop-deploy.ts). Packages stay
// outside the bundle and load from node_modules. The rest of dist/ is kept as tsc wrote it
// (the sandbox's Lambda bootstrap runs from there). bundle/modules.json maps each bundle file
// to the dist/ modules it holds, so a test can still tell which of them a command loaded.
// Usage: node scripts/bundle-cli.mjs (after tsc, as `npm run build` does).
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli');
const outdir = join(cli, 'bundle');

rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [join(cli, 'main.js')],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outdir,
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const modules = Object.fromEntries(
  Object.entries(metafile.outputs).map(([output, { inputs }]) => [
    relative(outdir, join(root, output)),
    Object.keys(inputs).map((input) => relative(root, join(root, input))),
  ]),
);
writeFileSync(join(outdir, 'modules.json'), `${JSON.stringify(modules, null, 2)}\n`);
writeFileSync(join(cli, 'main.js'), "#!/usr/bin/env node\nimport './bundle/main.js';\n");

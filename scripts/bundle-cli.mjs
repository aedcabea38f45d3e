// Bundles the compiled CLI (dist/cli/main.js and everything it imports from dist/) into
// dist/cli/bundle/, one file per lazily imported part, and turns dist/cli/main.js into a
// one-line entry that loads it. Node resolves, reads and links a few dozen files instead of
// about 200 on every command (bench/cli-start.ts, bench/noop-deploy.ts). The packages it uses
// are bundled and minified too (a no-op deploy otherwise reads some 90 files of
// @aws-cdk/cloud-assembly-schema, zod and commander), except the AWS SDK's (@aws-sdk, @smithy,
// @aws-crypto, @aws): src/aws/sdk-modules.ts loads them with `require` on first use, and an
// SDK module bundled beside them would be a second copy whose classes fail `instanceof`
// against the one require loads; bundled, they would also sit in the import graph of every
// command (--help included). dynalite stays outside (the sandbox's DynamoDB, loaded by path).
// The rest of dist/ is kept as tsc wrote it (the sandbox's Lambda bootstrap runs from there).
// bundle/modules.json maps each bundle file to the dist/ and node_modules/ files it holds, so
// a test can still tell which of them a command loaded.
// Usage: node scripts/bundle-cli.mjs (after tsc, as `npm run build` does).
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli');
const outdir = join(cli, 'bundle');

const KEPT_OUTSIDE = [/^@aws-sdk\//, /^@smithy\//, /^@aws-crypto\//, /^@aws\//, /^dynalite$/];

/** Marks Node built-ins and the packages matching `kept` external; every other package is bundled. */
function externalPackages(kept) {
  return {
    name: 'external-packages',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, ({ path }) => {
        if (path.startsWith('node:')) return { external: true };
        const name = path
          .split('/')
          .slice(0, path.startsWith('@') ? 2 : 1)
          .join('/');
        return kept.some((pattern) => pattern.test(name)) ? { external: true } : undefined;
      });
    },
  };
}

rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [join(cli, 'main.js')],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalPackages(KEPT_OUTSIDE)],
  minify: true,
  // Names survive minification: errors and logs name classes and functions.
  keepNames: true,
  // A bundled CommonJS package's require() of a Node built-in needs a require in ESM.
  banner: {
    js: "import { createRequire as __cdkdRequire } from 'node:module'; const require = __cdkdRequire(import.meta.url);",
  },
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

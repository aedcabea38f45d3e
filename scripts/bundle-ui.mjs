// Builds the `cdkd ui` page into dist/ui/page/: app.js (src/ui/page/main.ts and the libraries it
// uses, bundled and minified, so nothing loads from a CDN) and index.html with its style
// inlined. `cdkd ui` serves both; `cdkd events --html` inlines them into one file.
// Usage: node scripts/bundle-ui.mjs (after tsc, as `npm run build` does).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const page = join(root, 'src', 'ui', 'page');
const outdir = join(root, 'dist', 'ui', 'page');

mkdirSync(outdir, { recursive: true });
await build({
  entryPoints: [join(page, 'main.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox120'],
  minify: true,
  legalComments: 'none',
  outfile: join(outdir, 'app.js'),
  logLevel: 'warning',
});
const style = readFileSync(join(page, 'style.css'), 'utf8');
writeFileSync(
  join(outdir, 'index.html'),
  readFileSync(join(page, 'index.html'), 'utf8').replace('/*STYLE*/', style),
);

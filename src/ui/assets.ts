import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

/** Where `npm run build` puts the page (scripts/bundle-ui.mjs). */
export const UI_ASSETS = join(PACKAGE_ROOT, 'dist', 'ui', 'page');

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CdkdError } from '../errors.js';
import type { StackEvent } from '../state/index.js';

const SCRIPT_TAG = '<script type="module" src="/app.js"></script>';

/**
 * One self-contained HTML file showing a stack's deploy timelines: the built page and its
 * script inlined, the events embedded as data, nothing fetched (it opens from file://).
 */
export async function eventsHtml(
  assets: string,
  embedded: {
    stackName: string;
    region: string;
    events: StackEvent[];
    dependencies: Record<string, string[]>;
  },
): Promise<string> {
  const [page, app] = await Promise.all([
    readFile(join(assets, 'index.html'), 'utf8').catch(() => undefined),
    readFile(join(assets, 'app.js'), 'utf8').catch(() => undefined),
  ]);
  if (!page || !app || !page.includes(SCRIPT_TAG)) {
    throw new CdkdError('UI_NOT_BUILT', `The cdkd page is missing or incomplete in ${assets}.`, {
      hint: 'Run npm run build in the cdkd package, then re-run the command.',
    });
  }
  const data = inlineSafe(JSON.stringify(embedded));
  return page.replace(
    SCRIPT_TAG,
    () => `<script>window.CDKD_EVENTS = ${data};</script>\n<script type="module">${inlineSafe(app)}</script>`,
  );
}

/** Nothing inside an inline script may close it early. */
function inlineSafe(text: string): string {
  return text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

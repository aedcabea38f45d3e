import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { ERROR_CODES } from '../src/error-codes.js';

export const ERROR_LIST_START = '<!-- error-codes:start (npm run docs:errors writes this list) -->';
export const ERROR_LIST_END = '<!-- error-codes:end -->';

/** The README's error-code table, one row per catalog entry in the catalog's order. */
export function errorCodeTable(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, meaning]) => `| \`${code}\` | ${meaning.replaceAll('|', '\\|')} |`,
  );
  return ['| code | meaning |', '| --- | --- |', ...rows].join('\n');
}

/** `readme` with the text between the markers replaced by the table. */
export function withErrorCodeTable(readme: string): string {
  const start = readme.indexOf(ERROR_LIST_START);
  const end = readme.indexOf(ERROR_LIST_END);
  if (start < 0 || end < start)
    throw new Error(`README.md lacks the markers ${ERROR_LIST_START} ... ${ERROR_LIST_END}.`);
  return `${readme.slice(0, start + ERROR_LIST_START.length)}\n\n${errorCodeTable()}\n\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = fileURLToPath(new URL('../README.md', import.meta.url));
  const text = withErrorCodeTable(readFileSync(file, 'utf8'));
  writeFileSync(file, await format(text, { ...(await resolveConfig(file)), filepath: file }));
}

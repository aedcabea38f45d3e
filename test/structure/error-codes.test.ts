import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/error-codes.js';
import { CdkdError } from '../../src/errors.js';
import { ERROR_LIST_END, ERROR_LIST_START } from '../../scripts/error-codes-doc.js';

const root = join(import.meta.dirname, '../..');

/** The rows of the README's error-code table: code → meaning, as rendered. */
function readmeRows(): Map<string, string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(ERROR_LIST_START);
  const end = readme.indexOf(ERROR_LIST_END);
  expect(start, 'README.md has the error-code list markers').toBeGreaterThan(-1);
  const rows = new Map<string, string>();
  for (const line of readme.slice(start, end).split('\n')) {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
    const code = /^`([A-Z0-9_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (code) rows.set(code, cells[1]!);
  }
  return rows;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the error-code catalog', () => {
  it('is what the README lists, code for code (npm run docs:errors rewrites the list)', () => {
    expect(readmeRows()).toEqual(new Map(Object.entries(ERROR_CODES)));
  });

  it('holds only codes some source file raises or reports', () => {
    const source = sourceFiles(join(root, 'src'))
      .filter((file) => !file.endsWith('error-codes.ts') && !file.includes('/sandbox/'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = Object.keys(ERROR_CODES).filter((code) => !source.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });

  it('leaves by 1 unless raised with another exit code, and refuses codes outside the catalog', () => {
    expect(new CdkdError('LOCK_HELD', 'held').exitCode).toBe(1);
    expect(new CdkdError('CANCELLED', 'no', { exitCode: 130 }).exitCode).toBe(130);
    // @ts-expect-error a code outside the catalog does not compile (npm run typecheck fails without it)
    expect(new CdkdError('LOCK_HLED', 'typo').code).toBe('LOCK_HLED');
  });
});

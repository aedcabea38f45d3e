import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode } from '../../src/error-codes.js';
import { CdkdError } from '../../src/errors.js';
import { ERROR_LIST_END, ERROR_LIST_START } from '../../scripts/error-codes-doc.js';

const root = join(import.meta.dirname, '../..');

/** The rows of the README's error-code table: code → [meaning, exit code], as rendered. */
function readmeRows(): Map<string, [string, string]> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(ERROR_LIST_START);
  const end = readme.indexOf(ERROR_LIST_END);
  expect(start, 'README.md has the error-code list markers').toBeGreaterThan(-1);
  const rows = new Map<string, [string, string]>();
  for (const line of readme.slice(start, end).split('\n')) {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
    const code = /^`([A-Z0-9_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (code) rows.set(code, [cells[1]!, cells[2]!]);
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
    const expected = new Map(
      Object.entries(ERROR_CODES).map(([code, entry]) => [code, [entry.meaning, String(entry.exitCode)]]),
    );
    expect(readmeRows()).toEqual(expected);
  });

  it('holds only codes some source file raises or reports', () => {
    const source = sourceFiles(join(root, 'src'))
      .filter((file) => !file.endsWith('error-codes.ts') && !file.includes('/sandbox/'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = Object.keys(ERROR_CODES).filter((code) => !source.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });

  it('gives CdkdError its default exit code and refuses strings outside it', () => {
    expect(new CdkdError('LOCK_HELD', 'held').exitCode).toBe(ERROR_CODES.LOCK_HELD.exitCode);
    expect(new CdkdError('CANCELLED', 'no', { exitCode: 130 }).exitCode).toBe(130);
    expect(isErrorCode('LOCK_HELD')).toBe(true);
    expect(isErrorCode('LOCK_HLED')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    // @ts-expect-error a code outside the catalog does not compile (npm run typecheck fails without it)
    expect(new CdkdError('LOCK_HLED', 'typo').code).toBe('LOCK_HLED');
  });
});

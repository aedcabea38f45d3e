import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirm, confirmed, type Terminal } from '../../src/cli/prompts/confirm.js';
import { CdkdError } from '../../src/errors.js';

/** A terminal whose keystrokes the test types once the question is on screen. */
function terminal(keys: string, isTTY = true): Terminal {
  const input = Object.assign(new PassThrough(), { isTTY });
  const output = new PassThrough();
  output.once('data', () => input.write(keys));
  return { input, output };
}

async function failure(promise: Promise<unknown>): Promise<CdkdError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CdkdError);
  return error as CdkdError;
}

describe('confirm', () => {
  it.each([
    ['y\r', true],
    ['yes\r', true],
    ['n\r', false],
    ['\r', false],
  ])('answers %j as %s', async (keys, expected) => {
    expect(await confirmed('Go?', false, terminal(keys))).toBe(expected);
  });

  it.each([
    ['Ctrl+C', '\x03', 130],
    ['Ctrl+D', '\x04', 1],
  ])(
    '%s at the prompt cancels the command with CANCELLED, not an unexpected error (exit %s)',
    async (_name, keys, exitCode) => {
      const error = await failure(confirm('Go?', false, terminal(keys)));
      expect(error.code).toBe('CANCELLED');
      expect(error.message).toContain('nothing was changed');
      expect(error.exitCode).toBe(exitCode);
    },
  );

  it('Ctrl+C among several questions cancels the command instead of answering no', async () => {
    const error = await failure(confirmed('Go?', false, terminal('\x03')));
    expect(error.code).toBe('CANCELLED');
  });

  it('without a terminal, only --yes proceeds', async () => {
    expect((await failure(confirm('Go?', false, terminal('y\r', false)))).code).toBe('CONFIRMATION_REQUIRED');
    await expect(confirm('Go?', true, terminal('', false))).resolves.toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { renderError } from '../../src/cli/render/render-error.js';
import { CdkdError } from '../../src/errors.js';

describe('renderError', () => {
  const error = new CdkdError('LOCK_HELD', 'Stack S is locked.', {
    hint: 'Run cdkd force-unlock S.',
    cause: new Error('inner'),
  });

  it('prints what happened and what to do, without the cause', () => {
    expect(renderError(error, false)).toEqual([
      'Error [LOCK_HELD]: Stack S is locked.',
      '  Run cdkd force-unlock S.',
    ]);
  });

  it('adds the cause under --verbose', () => {
    expect(renderError(error, true).join('\n')).toContain('Cause: Error: inner');
  });

  it('never prints a stack trace for an unexpected error unless verbose', () => {
    const lines = renderError(new TypeError('x is undefined'), false);
    expect(lines[0]).toBe('Error: x is undefined');
    expect(lines.join('\n')).not.toContain('    at ');
  });
});

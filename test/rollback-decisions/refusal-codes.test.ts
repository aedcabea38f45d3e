import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/error-codes.js';
import type { RollbackStep } from '../../src/rollback-decisions/steps.js';

describe('a rollback refusal', () => {
  it('carries a code of the catalog, so the CLI renders it with its meaning and exit code', () => {
    const refusal: RollbackStep = {
      kind: 'refuse',
      logicalId: 'Queue',
      code: 'ROLLBACK_NO_BASELINE',
      reason: 'r',
    };
    expect(ERROR_CODES[refusal.code]).toBeDefined();
    const mistyped: RollbackStep = {
      kind: 'refuse',
      logicalId: 'Queue',
      // @ts-expect-error a code the catalog does not hold does not compile
      code: 'ROLLBACK_NO_BASELIN',
      reason: 'r',
    };
    expect(mistyped.kind).toBe('refuse');
  });
});

import { describe, expect, it } from 'vitest';
import { retentionAction } from '../../src/providers/logs/retention.js';

// Spec 002, "Log group retention": one row per value the spec names.
const ROWS: Array<[string, unknown, 'put' | 'delete' | 'refused', number?]> = [
  ['number 30', 30, 'put', 30],
  ["string '30'", '30', 'put', 30],
  ["signed '+30'", '+30', 'put', 30],
  ["padded ' 30 '", ' 30 ', 'put', 30],
  ["hex '0x1e'", '0x1e', 'refused'],
  ["exponent '1e3'", '1e3', 'refused'],
  ["fraction '30.5'", '30.5', 'refused'],
  ["trailing zero '30.0'", '30.0', 'refused'],
  ['absent', undefined, 'delete'],
  ['empty string', '', 'delete'],
  ['whitespace-only string', '   ', 'delete'],
  ['number 0', 0, 'refused'],
  ["string '0'", '0', 'refused'],
  ['false', false, 'refused'],
  ['null', null, 'refused'],
];

describe('RetentionInDays as CloudFormation reads it', () => {
  it.each(ROWS)('%s', (_label, value, verdict, days) => {
    if (verdict === 'refused') {
      expect(() => retentionAction(value)).toThrow(
        expect.objectContaining({ code: 'LOG_RETENTION_INVALID' }) as Error,
      );
      return;
    }
    expect(retentionAction(value)).toEqual(
      verdict === 'put' ? { action: 'put', days } : { action: 'delete' },
    );
  });

  it('refuses a non-integer number', () => {
    expect(() => retentionAction(30.5)).toThrow(/RetentionInDays 30.5 is not a valid retention/);
  });
});

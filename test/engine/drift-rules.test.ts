import { describe, expect, it } from 'vitest';
import { acceptedProperties, driftOf, revertProperties } from '../../src/engine/drift-rules.js';

describe('driftOf: what AWS holds otherwise than cdkd applied', () => {
  it.each([
    ['the same value', { A: 30 }, { A: 30 }, []],
    ['a number read back as text', { A: 30 }, { A: '30' }, []],
    ['a boolean read back as text', { A: { On: true } }, { A: { On: 'true' } }, []],
    ['a changed value', { A: 30 }, { A: '90' }, [{ property: 'A', recorded: 30, live: '90' }]],
    ['a removed value', { A: { x: 1 } }, {}, [{ property: 'A', recorded: { x: 1 }, live: undefined }]],
    ['what cdkd never applied', {}, { Extra: 1 }, []],
    ['a masked (NoEcho) value', { Secret: '***' }, { Secret: 'changed' }, []],
    ['key order inside a value', { A: { x: 1, y: 2 } }, { A: { y: 2, x: 1 } }, []],
  ])('%s', (_case, applied, live, expected) => {
    expect(driftOf(applied, live)).toEqual(expected);
  });
});

describe('revertProperties: the numeric-0 log-group retention (spec 002)', () => {
  it.each([
    [
      'a log group read back as never-expire',
      'AWS::Logs::LogGroup',
      { LogGroupName: 'g', RetentionInDays: 0 },
      { LogGroupName: 'g' },
    ],
    ['a log group with a retention', 'AWS::Logs::LogGroup', { RetentionInDays: 30 }, { RetentionInDays: 30 }],
    [
      "a log group's text '0' is not cdkd's spelling",
      'AWS::Logs::LogGroup',
      { RetentionInDays: '0' },
      { RetentionInDays: '0' },
    ],
    ['another type keeps its 0', 'AWS::SQS::Queue', { DelaySeconds: 0 }, { DelaySeconds: 0 }],
  ])('%s', (_case, type, applied, expected) => {
    expect(revertProperties(type, applied)).toEqual(expected);
  });
});

describe('acceptedProperties: live values taken in', () => {
  it('replaces a changed value and drops a removed one', () => {
    expect(
      acceptedProperties({ A: 1, B: 2, C: 3 }, [
        { property: 'A', recorded: 1, live: '9' },
        { property: 'B', recorded: 2, live: undefined },
      ]),
    ).toEqual({ A: '9', C: 3 });
  });
});

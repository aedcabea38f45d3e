import { describe, expect, it } from 'vitest';
import { acceptedProperties, driftOf } from '../../src/engine/drift/drift-rules.js';
import { revertProperties } from '../../src/resource-types/drift-exceptions.js';

describe('driftOf: what AWS holds otherwise than cdkd applied', () => {
  it.each([
    ['the same value', { A: 30 }, { A: 30 }, []],
    ['a number read back as text', { A: 30 }, { A: '30' }, []],
    ['a boolean read back as text', { A: { On: true } }, { A: { On: 'true' } }, []],
    ['a changed value', { A: 30 }, { A: '90' }, [{ property: 'A', recorded: 30, live: '90' }]],
    ['a removed value', { A: { x: 1 } }, {}, [{ property: 'A', recorded: { x: 1 }, live: undefined }]],
    ['what cdkd never applied', {}, { Extra: 1 }, []],
    ['a masked (NoEcho) value', { Secret: '***' }, { Secret: 'changed' }, []],
    [
      'a value applied from a dynamic reference (never compared, so the secret is never printed)',
      { Password: '{{resolve:secretsmanager:db:SecretString:password::}}' },
      { Password: 'hunter2' },
      [],
    ],
    ['key order inside a value', { A: { x: 1, y: 2 } }, { A: { y: 2, x: 1 } }, []],
  ])('%s', (_case, applied, live, expected) => {
    expect(driftOf(applied, live)).toEqual(expected);
  });
});

describe('driftOf: write-only properties, which no read returns, are not compared', () => {
  const code = { ZipFile: 'def handler(e, c): pass' };
  it.each([
    [
      'a top-level write-only property AWS does not return',
      { Code: code, Timeout: 3 },
      { Timeout: 3 },
      ['Code'],
      [],
    ],
    [
      'a write-only property AWS does return, changed',
      { Code: code },
      { Code: { ZipFile: 'x' } },
      ['Code'],
      [],
    ],
    [
      'the other properties still compared',
      { Code: code, Timeout: 3 },
      { Timeout: 9 },
      ['Code'],
      ['Timeout'],
    ],
    [
      'a nested write-only member, the rest of its property matching',
      { LoginProfile: { Password: 'p', PasswordResetRequired: true } },
      { LoginProfile: { PasswordResetRequired: true } },
      ['LoginProfile.Password'],
      [],
    ],
    [
      'a nested write-only member, the rest of its property drifted',
      { LoginProfile: { Password: 'p', PasswordResetRequired: true } },
      { LoginProfile: { PasswordResetRequired: false } },
      ['LoginProfile.Password'],
      ['LoginProfile'],
    ],
    [
      'a property holding only write-only members, read back as absent',
      { LoginProfile: { Password: 'p' } },
      {},
      ['LoginProfile.Password'],
      [],
    ],
    [
      'a write-only member of every element of a list',
      {
        Users: [
          { Name: 'a', Secret: 's' },
          { Name: 'b', Secret: 't' },
        ],
      },
      { Users: [{ Name: 'a' }, { Name: 'b' }] },
      ['Users.*.Secret'],
      [],
    ],
    [
      'an element that drifted besides its write-only member',
      { Users: [{ Name: 'a', Secret: 's' }] },
      { Users: [{ Name: 'z' }] },
      ['Users.*.Secret'],
      ['Users'],
    ],
    ['a property AWS drops that is not write-only', { Flag: false }, {}, ['Code'], ['Flag']],
  ])('%s', (_case, applied, live, writeOnly, expected) => {
    expect(driftOf(applied, live, writeOnly).map((drift) => drift.property)).toEqual(expected);
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

import { describe, expect, it } from 'vitest';
import { maskEchoes, maskedReadBack, maskedSecrets } from '../../src/stack-state/echoed-secrets.js';
import { maskedAttributes } from '../../src/stack-state/no-echo-data.js';

describe('maskedSecrets: the clear text behind each mask in the stored properties', () => {
  it.each([
    ['a whole value', { Value: 'hunter2' }, { Value: '***' }, ['hunter2']],
    [
      'a value inside a joined string',
      { Url: 'https://u:hunter2@h/x' },
      { Url: 'https://u:***@h/x' },
      ['hunter2'],
    ],
    ['two masks in one string', { S: 'a-one-b-two' }, { S: 'a-***-b-***' }, ['one', 'two']],
    [
      'at any depth, in lists too',
      { A: [{ B: 'x' }, { B: 'pw' }] },
      { A: [{ B: 'x' }, { B: '***' }] },
      ['pw'],
    ],
    ['nothing masked', { Value: 'plain', N: 3 }, { Value: 'plain', N: 3 }, []],
    ['a mask that does not line up: the whole value', { S: 'other' }, { S: 'pre-***' }, ['other']],
    ['the same secret twice, once', { A: 'pw', B: 'pw' }, { A: '***', B: '***' }, ['pw']],
  ])('%s', (_, sent, stored, secrets) => {
    expect(maskedSecrets(sent, stored)).toEqual(secrets);
  });
});

describe('maskEchoes: what AWS echoed of a secret it was sent', () => {
  it.each([
    ['an attribute equal to the secret', { Value: 'pw1' }, ['pw1'], { Value: '***' }],
    ['an attribute holding it', { Arn: 'arn:x:pw1:y' }, ['pw1'], { Arn: 'arn:x:***:y' }],
    ['nested, in lists', { A: [{ B: 'pw1' }], N: 4 }, ['pw1'], { A: [{ B: '***' }], N: 4 }],
    ['a longer secret holding a shorter one, masked whole', { V: 'abcdef' }, ['abc', 'abcdef'], { V: '***' }],
    ['no secrets: unchanged', { V: 'pw1' }, [], { V: 'pw1' }],
    ['nothing echoed: unchanged', { V: 'other' }, ['pw1'], { V: 'other' }],
  ])('%s', (_, value, secrets, masked) => {
    expect(maskEchoes(value, secrets)).toEqual(masked);
  });
});

describe("maskedAttributes: a NoEcho custom resource's Data as state records it", () => {
  it('keeps every key and masks every value, whatever its type', () => {
    expect(maskedAttributes({ Password: 'pw', Port: 443, Nested: { A: 1 } })).toEqual({
      Password: '***',
      Port: '***',
      Nested: '***',
    });
  });
});

describe('maskedReadBack: a read-back (drift, refresh-observed) of a resource whose record holds masks', () => {
  it.each([
    [
      'the masked property and its echoes',
      { Value: 'pw', Arn: 'arn:pw' },
      { Value: '***' },
      { Value: '***', Arn: 'arn:***' },
    ],
    ['nothing masked in the record: as read', { Value: 'pw' }, { Value: 'pw' }, { Value: 'pw' }],
  ])('%s', (_, live, recorded, stored) => {
    expect(maskedReadBack(live, recorded)).toEqual(stored);
  });
});

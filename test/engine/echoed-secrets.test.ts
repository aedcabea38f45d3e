import { describe, expect, it } from 'vitest';
import { maskEchoes, maskedSecrets } from '../../src/engine/echoed-secrets.js';
import { maskedAttributes } from '../../src/engine/no-echo-data.js';

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

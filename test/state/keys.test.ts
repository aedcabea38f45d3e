import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../src/errors.js';
import {
  normalizeStatePrefix,
  parseAnyStateKey,
  parseStateKey,
  stackStateKeys,
  stateDocumentOf,
} from '../../src/state/keys.js';

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return isCdkdError(error) ? error.code : 'not a CdkdError';
  }
}

describe('state key layout', () => {
  it('places every document under {prefix}/{stack}/{region}/', () => {
    expect(stackStateKeys('cdkd', 'MyStack', 'eu-west-1')).toEqual({
      state: 'cdkd/MyStack/eu-west-1/state.json',
      lock: 'cdkd/MyStack/eu-west-1/lock.json',
      journal: 'cdkd/MyStack/eu-west-1/rollback-journal.json',
      journalTailsPrefix: 'cdkd/MyStack/eu-west-1/rollback-journal/',
      eventsPrefix: 'cdkd/MyStack/eu-west-1/events/',
      customResourceResponsesPrefix: 'cdkd/MyStack/eu-west-1/custom-resource-responses/',
      noEchoData: 'cdkd/MyStack/eu-west-1/no-echo-data.json',
      drift: 'cdkd/MyStack/eu-west-1/drift.json',
      generation: 'cdkd/MyStack/eu-west-1/generation.json',
    });
  });

  it('ignores slashes around a custom prefix', () => {
    expect(stackStateKeys('/team/a/', 'S', 'us-east-1').state).toBe('team/a/S/us-east-1/state.json');
  });

  it.each([
    ['cdkd/S/us-east-1/state.json', { stackName: 'S', region: 'us-east-1' }],
    ['cdkd/S/us-east-1/lock.json', undefined],
    ['cdkd/S/state.json', undefined],
    ['other/S/us-east-1/state.json', undefined],
    ['cdkd/S/us-east-1/events/state.json', undefined],
  ])('parses %s', (key, expected) => {
    expect(parseStateKey('cdkd', key)).toEqual(expected);
  });

  it.each([
    ['cdkd/S/us-east-1/state.json', { stackName: 'S', region: 'us-east-1' }],
    ['cdkd/S/Child/us-gov-west-1/state.json', { stackName: 'S/Child', region: 'us-gov-west-1' }],
    ['cdkd/S/Child/Grand/cn-north-1/state.json', { stackName: 'S/Child/Grand', region: 'cn-north-1' }],
    ['cdkd/S/state.json', { legacyStackName: 'S' }],
    ['cdkd/S/us-east-1/events/state.json', undefined],
    ['cdkd/S/us-east-1/rollback-journal.json', undefined],
    ['other/S/us-east-1/state.json', undefined],
  ])('finds every state document under the prefix: %s', (key, expected) => {
    expect(parseAnyStateKey('cdkd', key)).toEqual(expected);
  });

  it('finds a journal the same way, whether or not the stack still has state', () => {
    expect(
      parseAnyStateKey('cdkd', 'cdkd/S/Child/us-east-1/rollback-journal.json', 'rollback-journal.json'),
    ).toEqual({
      stackName: 'S/Child',
      region: 'us-east-1',
    });
    expect(parseAnyStateKey('cdkd', 'cdkd/S/us-east-1/state.json', 'rollback-journal.json')).toBeUndefined();
  });
});

describe("no name addresses another stack's documents", () => {
  it.each([
    // A nested stack's state name: a top-level `S/Q` is refused before it gets here.
    ['S/Q', undefined],
    ['..', 'STACK_NAME_INVALID'],
    ['', 'STACK_NAME_INVALID'],
    ['my stack ☃', 'STACK_NAME_INVALID'],
    ['../../etc', 'STACK_NAME_INVALID'],
    ['S/a-b', 'STACK_NAME_INVALID'],
    ['S/..', 'STACK_NAME_INVALID'],
    ['S//Q', 'STACK_NAME_INVALID'],
    ['a'.repeat(129), 'STACK_NAME_INVALID'],
    ['a'.repeat(128), undefined],
    ['My-Stack-2', undefined],
    ['S/Child/Grand', undefined],
  ])('stack name %j: %s', (name, code) => {
    expect(codeOf(() => stackStateKeys('cdkd', name, 'us-east-1'))).toBe(code);
  });

  it.each(['..', '../x', 'x/', 'us-east-1/../..', ''])('refuses the region %j', (region) => {
    expect(codeOf(() => stackStateKeys('cdkd', 'S', region))).toBe('REGION_INVALID');
  });

  it.each([
    ['../..', 'STATE_PREFIX_INVALID'],
    ['a/../b', 'STATE_PREFIX_INVALID'],
    ['a//b', 'STATE_PREFIX_INVALID'],
    ['.', 'STATE_PREFIX_INVALID'],
    ['', 'STATE_PREFIX_INVALID'],
    ['/', 'STATE_PREFIX_INVALID'],
    ['team/cdkd', undefined],
    ['/cdkd/', undefined],
  ])('--state-prefix %j: %s', (prefix, code) => {
    expect(codeOf(() => normalizeStatePrefix(prefix))).toBe(code);
  });

  it('never reads a nested key as a top-level one, nor a key with a refused segment as either', () => {
    expect(parseStateKey('cdkd', 'cdkd/S/Q/us-east-1/state.json')).toBeUndefined();
    expect(parseAnyStateKey('cdkd', 'cdkd/S/Q/us-east-1/state.json')).toEqual({
      stackName: 'S/Q',
      region: 'us-east-1',
    });
    expect(parseAnyStateKey('cdkd', 'cdkd/S/a-b/us-east-1/state.json')).toBeUndefined();
    expect(parseAnyStateKey('cdkd', 'cdkd/../us-east-1/state.json')).toBeUndefined();
    expect(parseAnyStateKey('cdkd', 'cdkd/1abc/us-east-1/state.json')).toBeUndefined();
    expect(parseAnyStateKey('cdkd', 'cdkd/1abc/state.json')).toBeUndefined();
  });

  it('reads the keys an earlier cdkd wrote unchanged', () => {
    expect(parseStateKey('/cdkd/', 'cdkd/Stack-1/eu-west-1/state.json')).toEqual({
      stackName: 'Stack-1',
      region: 'eu-west-1',
    });
  });
});

describe('stateDocumentOf: the document and stack a key addresses', () => {
  const rows: Array<[string, string, ReturnType<typeof stateDocumentOf>]> = [
    [
      'cdkd',
      'cdkd/App/us-east-1/state.json',
      { kind: 'state', stack: { stackName: 'App', region: 'us-east-1' } },
    ],
    [
      'cdkd',
      'cdkd/App/eu-west-1/lock.json',
      { kind: 'lock', stack: { stackName: 'App', region: 'eu-west-1' } },
    ],
    [
      'team/cdkd',
      'team/cdkd/App/Child/us-east-1/rollback-journal.json',
      { kind: 'journal', stack: { stackName: 'App/Child', region: 'us-east-1' } },
    ],
    [
      'cdkd',
      'cdkd/App/us-east-1/rollback-journal/w1/000003.json',
      { kind: 'journal', stack: { stackName: 'App', region: 'us-east-1' } },
    ],
    [
      'cdkd',
      'cdkd/App/us-east-1/events/',
      { kind: 'events', stack: { stackName: 'App', region: 'us-east-1' } },
    ],
    [
      'cdkd',
      'cdkd/App/us-east-1/custom-resource-responses/r1',
      { kind: 'responses', stack: { stackName: 'App', region: 'us-east-1' } },
    ],
    [
      'cdkd',
      'cdkd/App/us-east-1/no-echo-data.json',
      { kind: 'no-echo', stack: { stackName: 'App', region: 'us-east-1' } },
    ],
    [
      'cdkd',
      'cdkd/App/us-east-1/drift.json',
      { kind: 'drift', stack: { stackName: 'App', region: 'us-east-1' } },
    ],
    ['cdkd', 'cdkd/', undefined],
    ['cdkd', 'other/App/us-east-1/state.json', undefined],
    ['cdkd', 'cdkd/App/state.json', undefined],
  ];
  it.each(rows)('%s: %s', (prefix, key, expected) => {
    expect(stateDocumentOf(prefix, key)).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { parseAnyStateKey, parseStateKey, stackStateKeys } from '../../src/state/keys.js';

describe('state key layout', () => {
  it('places every document under {prefix}/{stack}/{region}/', () => {
    expect(stackStateKeys('cdkd', 'MyStack', 'eu-west-1')).toEqual({
      state: 'cdkd/MyStack/eu-west-1/state.json',
      lock: 'cdkd/MyStack/eu-west-1/lock.json',
      journal: 'cdkd/MyStack/eu-west-1/rollback-journal.json',
      eventsPrefix: 'cdkd/MyStack/eu-west-1/events/',
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

import { describe, expect, it } from 'vitest';
import {
  generatePhysicalName,
  givenOrTokenName,
  nameFromToken,
  nameRandom,
  tokenPhysicalName,
} from '../../src/providers/physical-names.js';
import { generatedBucketName } from '../../src/providers/s3/bucket.js';
import { generatedTopicName } from '../../src/providers/sns/topic.js';
import { generatedQueueName } from '../../src/providers/sqs/queue.js';

const fixed = () => 0;

describe('generatePhysicalName', () => {
  it.each([
    ['fits within the limit untouched', 'App', 'Queue', { maxLength: 80 }, 'App-Queue-AAAAAAAAAAAA'],
    [
      'cuts the stack and logical parts to the limit, keeping the suffix',
      'AVeryLongStackNameIndeed',
      'AVeryLongLogicalIdIndeed',
      { maxLength: 30 },
      'AVeryLon-AVeryLon-AAAAAAAAAAAA',
    ],
    ['lower-cases for S3', 'App', 'Bucket', { maxLength: 63, lowerCase: true }, 'app-bucket-aaaaaaaaaaaa'],
    [
      'replaces characters the service refuses',
      'My_App',
      'Role',
      { maxLength: 64 },
      'My-App-Role-AAAAAAAAAAAA',
    ],
    [
      'keeps allowed extra characters',
      'My_App',
      'Role',
      { maxLength: 64, extraCharacters: '_+=,.@-' },
      'My_App-Role-AAAAAAAAAAAA',
    ],
  ])('%s', (_name, stack, logicalId, rules, expected) => {
    const name = generatePhysicalName(stack, logicalId, rules, fixed);
    expect(name.length).toBeLessThanOrEqual(rules.maxLength);
    expect(name).toBe(expected);
  });

  it('never exceeds the limit for any input', () => {
    for (let max = 14; max <= 64; max += 5) {
      expect(
        generatePhysicalName('S'.repeat(100), 'L'.repeat(100), { maxLength: max }).length,
      ).toBeLessThanOrEqual(max);
    }
  });

  it('draws a fresh suffix each time', () => {
    expect(generatePhysicalName('S', 'L', { maxLength: 64 })).not.toBe(
      generatePhysicalName('S', 'L', { maxLength: 64 }),
    );
  });
});

describe('nameRandom', () => {
  it('picks the same characters for the same idempotency token, others for another', () => {
    const pick = (seed: string | undefined) => {
      const random = nameRandom(seed);
      return Array.from({ length: 12 }, () => random(36));
    };
    expect(pick('token-a')).toEqual(pick('token-a'));
    expect(pick('token-a')).not.toEqual(pick('token-b'));
    expect(pick(undefined).every((n) => n >= 0 && n < 36)).toBe(true);
  });
});

describe('names generated from an idempotency token', () => {
  const rules = { maxLength: 64 };
  const named = (token: string | undefined) => ({
    shared: tokenPhysicalName('S', { logicalId: 'L', idempotencyToken: token }, rules),
    queue: generatedQueueName('S', 'L', true, nameRandom(token)),
    topic: generatedTopicName('S', 'L', false, nameRandom(token)),
    bucket: generatedBucketName('S', 'L', nameRandom(token)),
  });

  it('are the same for the same token, so a retry asks for the same name and locate finds it', () => {
    expect(named('token-a')).toEqual(named('token-a'));
    expect(named('token-a').shared).toMatch(/^S-L-[A-Z0-9]{12}$/);
  });

  it('differ for another token, or without one', () => {
    const a = named('token-a');
    for (const other of [named('token-b'), named(undefined)]) {
      for (const key of Object.keys(a) as Array<keyof typeof a>) expect(other[key]).not.toBe(a[key]);
    }
  });
});

describe('nameFromToken: only a create that names nothing and carries a token can prove its name', () => {
  it.each([
    [undefined, 'tok', true],
    ['', 'tok', true],
    ['orders', 'tok', false],
    [undefined, undefined, false],
  ])('given %j with token %j: %s', (given, token, proves) => {
    expect(nameFromToken(given, token === undefined ? {} : { idempotencyToken: token })).toBe(proves);
  });

  it('givenOrTokenName keeps a given name and derives the rest from the token', () => {
    const request = { logicalId: 'Table', idempotencyToken: 'tok' };
    expect(givenOrTokenName('orders', 'Stack', request, { maxLength: 255 })).toBe('orders');
    expect(givenOrTokenName(undefined, 'Stack', request, { maxLength: 255 })).toBe(
      givenOrTokenName(undefined, 'Stack', request, { maxLength: 255 }),
    );
    expect(givenOrTokenName(undefined, 'Stack', request, { maxLength: 255 })).toMatch(
      /^Stack-Table-[A-Z0-9]{12}$/,
    );
  });
});

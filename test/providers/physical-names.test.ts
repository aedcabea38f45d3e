import { describe, expect, it } from 'vitest';
import { generatePhysicalName } from '../../src/providers/physical-names.js';

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

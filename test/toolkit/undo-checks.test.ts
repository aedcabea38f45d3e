import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../src/errors.js';
import type { GenerationDocument, JournalDocument, KeptGeneration } from '../../src/state/index.js';
import { chooseGeneration } from '../../src/toolkit/undo/generation-choice.js';
import {
  refuseMaskedParameters,
  refuseNestedStacks,
  refusePendingJournal,
} from '../../src/toolkit/undo/undo-checks.js';

const generation = (
  number: number,
  template: Record<string, unknown> = { Resources: {} },
): GenerationDocument => ({
  version: 1,
  stackName: 'S',
  region: 'us-east-1',
  number,
  deployedAt: '2026-12-05T00:00:00.000Z',
  source: 'deploy',
  template,
  parameters: {},
  tags: {},
  assets: [],
  images: [],
  changes: { create: 0, update: 0, replace: 0, delete: 0 },
});

const kept = (...numbers: Array<number | 'unreadable'>): KeptGeneration[] =>
  numbers.map((number, index) => ({
    versionId: `v${index}`,
    storedAt: new Date(0),
    ...(number === 'unreadable' ? { problem: 'torn' } : { document: generation(number) }),
  }));

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCdkdError(error) ? error.code : 'not a CdkdError';
  }
  return undefined;
}

describe('chooseGeneration: which kept generation undo returns to', () => {
  const rows: Array<[string, KeptGeneration[], number | undefined, number | string]> = [
    ['no --to: the one before the newest', kept(5, 4, 3), undefined, 4],
    ['no --to: by number, whatever order S3 listed them in', kept(3, 5, 4), undefined, 4],
    ['no --to: an unreadable version is passed over', kept(5, 'unreadable', 3), undefined, 3],
    ['--to names a kept generation', kept(5, 4, 3), 3, 3],
    ['--to the current one is allowed (a repair)', kept(5, 4), 5, 5],
    ['--to a generation not kept', kept(5, 4), 2, 'UNDO_GENERATION_NOT_FOUND'],
    ['only the current generation', kept(1), undefined, 'UNDO_NO_PREVIOUS_GENERATION'],
    ['no generation recorded', kept(), undefined, 'UNDO_NO_PREVIOUS_GENERATION'],
  ];
  // State holds what the newest generation holds: that generation is the current one.
  const current = { template: { Resources: {} }, parameters: {} };
  it.each(rows)('%s', (_, generations, to, expected) => {
    if (typeof expected === 'number')
      expect(chooseGeneration('S', generations, to, current).number).toBe(expected);
    else expect(codeOf(() => chooseGeneration('S', generations, to, current))).toBe(expected);
  });

  it('returns to the newest generation when state is newer than it (its generation write was lost)', () => {
    const lost = { template: { Resources: { Q: { Type: 'AWS::SQS::Queue' } } }, parameters: {} };
    expect(chooseGeneration('S', kept(5, 4), undefined, lost).number).toBe(5);
    expect(
      chooseGeneration('S', kept(5, 4), undefined, { ...current, parameters: { Delay: '7' } }).number,
    ).toBe(5);
    expect(chooseGeneration('S', kept(1), undefined, lost).number).toBe(1);
  });
});

describe('undo refusals before anything changes', () => {
  it('refuses a stack with journal segments, not one with none or no journal', () => {
    const journal = (segments: number) =>
      ({ segments: Array.from({ length: segments }, () => ({})) }) as unknown as JournalDocument;
    expect(codeOf(() => refusePendingJournal('S', journal(1)))).toBe('UNDO_JOURNAL_PENDING');
    expect(codeOf(() => refusePendingJournal('S', journal(0)))).toBeUndefined();
    expect(codeOf(() => refusePendingJournal('S', undefined))).toBeUndefined();
  });

  it('refuses a generation holding a nested stack', () => {
    const nested = generation(2, { Resources: { Child: { Type: 'AWS::CloudFormation::Stack' } } });
    expect(codeOf(() => refuseNestedStacks('S', nested))).toBe('UNDO_NESTED_STACKS');
    expect(codeOf(() => refuseNestedStacks('S', generation(2)))).toBeUndefined();
  });

  it('refuses a NoEcho parameter still masked, naming it, and takes one given a value', () => {
    let message = '';
    try {
      refuseMaskedParameters('S', generation(2), { Secret: '***', Plain: 'x' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('NoEcho parameter Secret masked');
    expect(
      codeOf(() => refuseMaskedParameters('S', generation(2), { Secret: 'given', Plain: 'x' })),
    ).toBeUndefined();
  });
});

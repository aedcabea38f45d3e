import { describe, expect, it } from 'vitest';
import type { CheckedStack } from '../../src/assembly/index.js';
import { isCdkdError } from '../../src/errors.js';
import { recreateTargets } from '../../src/toolkit/deploy/recreate-targets.js';

// The run-level check of the --recreate-via-* ids (spec 002, as for --pin-cc-api).
const stack = (resources: string[], nested: CheckedStack['nested'] = []): CheckedStack =>
  ({
    stack: {
      template: { Resources: Object.fromEntries(resources.map((id) => [id, { Type: 'AWS::SQS::Queue' }])) },
    },
    nested,
  }) as unknown as CheckedStack;

const child = (resources: string[]) => ({
  logicalId: 'Child',
  qualifiedName: 'Root~Child',
  templateFile: '/child.json',
  template: { Resources: Object.fromEntries(resources.map((id) => [id, { Type: 'AWS::SQS::Queue' }])) },
  nested: [],
});

function codeOf(call: () => unknown): string | undefined {
  try {
    call();
  } catch (error) {
    return isCdkdError(error) ? error.code : 'not a CdkdError';
  }
  return undefined;
}

describe('recreateTargets', () => {
  it('no flag: nothing to re-create', () => {
    expect(recreateTargets({ ccApi: [], sdkProvider: [] }, [stack(['A'])])).toBeUndefined();
  });

  it('each id maps to the layer its flag names', () => {
    expect(recreateTargets({ ccApi: ['A'], sdkProvider: ['B'] }, [stack(['A', 'B'])])).toEqual({
      A: 'cc-api',
      B: 'sdk',
    });
  });

  it('an id of one stack of several is accepted (under --all it is rightly absent from the others)', () => {
    expect(recreateTargets({ ccApi: ['B'], sdkProvider: [] }, [stack(['A']), stack(['B'])])).toEqual({
      B: 'cc-api',
    });
  });

  it('an id of a nested stack is accepted', () => {
    expect(
      recreateTargets({ ccApi: [], sdkProvider: ['Deep'] }, [stack(['Child'], [child(['Deep'])])]),
    ).toEqual({
      Deep: 'sdk',
    });
  });

  it('an id in no stack of the run is refused, naming the flag and the id', () => {
    expect(codeOf(() => recreateTargets({ ccApi: ['Nope'], sdkProvider: [] }, [stack(['A'])]))).toBe(
      'RECREATE_VIA_UNKNOWN_ID',
    );
    expect(() => recreateTargets({ ccApi: [], sdkProvider: ['Nope'] }, [stack(['A'])])).toThrow(
      '--recreate-via-sdk-provider names Nope, which no stack of this run declares; nothing was changed.',
    );
  });

  it('an empty id is refused and shown as an empty quoted string', () => {
    expect(() => recreateTargets({ ccApi: [''], sdkProvider: [] }, [stack(['A'])])).toThrow(
      "--recreate-via-cc-api names '', which no stack of this run declares; nothing was changed.",
    );
  });

  it('an id named by both flags is refused', () => {
    expect(codeOf(() => recreateTargets({ ccApi: ['A'], sdkProvider: ['A'] }, [stack(['A'])]))).toBe(
      'RECREATE_FLAGS_CONFLICT',
    );
  });
});

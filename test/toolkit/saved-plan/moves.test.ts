import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../../src/errors.js';
import {
  planFlags,
  refuseMovedInputs,
  savedPlanMoves,
  stackSetMismatch,
  type CurrentRun,
  type SavedPlan,
  type StackBasis,
} from '../../../src/toolkit/deploy/saved-plan/index.js';

const HASH = `sha256:${'a'.repeat(64)}`;
const OTHER_HASH = `sha256:${'b'.repeat(64)}`;
const SECRET_HASH = 'c'.repeat(64);

const basis: StackBasis = {
  stackName: 'App',
  displayName: 'App',
  accountId: '123456789012',
  region: 'us-east-1',
  templateHash: HASH,
  parameters: { Name: { value: 'one' }, Password: { sha256: SECRET_HASH } },
};

const saved: SavedPlan = {
  format: 'cdkd-saved-plan',
  formatVersion: 1,
  cdkdVersion: '1.0.0',
  createdAt: '2026-12-05T00:00:00.000Z',
  flags: planFlags({ forceStatefulRecreation: false }),
  stacks: [{ ...basis, stateEtag: '"etag-1"', operations: [] }],
};

function run(change: Partial<CurrentRun> & { stack?: Partial<StackBasis> } = {}): CurrentRun {
  const { stack, ...rest } = change;
  return {
    cdkdVersion: '1.0.0',
    flags: saved.flags,
    stacks: [{ ...basis, ...stack }],
    stateEtags: new Map([['App', '"etag-1"']]),
    ...rest,
  };
}

const flags = (input: Parameters<typeof planFlags>[0]) => planFlags(input);

/** One row per thing that can move between `cdkd diff --out` and `cdkd deploy --plan`. */
const cases: Array<{ moved: string; current: CurrentRun; says: string[] }> = [
  { moved: 'nothing', current: run(), says: [] },
  {
    moved: 'state ETag unknown before the lock',
    current: run({ stateEtags: new Map() }),
    says: [],
  },
  {
    moved: 'the state',
    current: run({ stateEtags: new Map([['App', '"etag-2"']]) }),
    says: ['App: its state changed since the plan was made'],
  },
  {
    moved: 'the state, gone',
    current: run({ stateEtags: new Map([['App', null]]) }),
    says: ['App: its state is gone since the plan was made'],
  },
  {
    moved: 'the template',
    current: run({ stack: { templateHash: OTHER_HASH } }),
    says: ['App: template differs (the app, its context, its assets or its nested stacks changed)'],
  },
  {
    moved: 'a parameter value',
    current: run({ stack: { parameters: { ...basis.parameters, Name: { value: 'two' } } } }),
    says: ['App: parameter Name differs (was "one", now "two")'],
  },
  {
    moved: 'a parameter given now only',
    current: run({ stack: { parameters: { ...basis.parameters, Extra: { value: 'x' } } } }),
    says: ['App: parameter Extra differs (was not given, now "x")'],
  },
  {
    moved: 'a NoEcho parameter, never shown',
    current: run({ stack: { parameters: { ...basis.parameters, Password: { sha256: 'd'.repeat(64) } } } }),
    says: ['App: parameter Password differs (NoEcho; values not shown)'],
  },
  {
    moved: 'the target region',
    current: run({ stack: { region: 'eu-west-1' } }),
    says: ['App: target differs: planned for 123456789012/us-east-1, now 123456789012/eu-west-1'],
  },
  {
    moved: "cdkd's version",
    current: run({ cdkdVersion: '1.0.1' }),
    says: ['cdkd version differs: the plan was made by 1.0.0, this is 1.0.1'],
  },
  {
    moved: '--force-stateful-recreation',
    current: run({ flags: flags({ forceStatefulRecreation: true }) }),
    says: ['flag differs: forceStatefulRecreation was false in the plan, is true now'],
  },
  {
    moved: '--replace',
    current: run({ flags: flags({ forceStatefulRecreation: false, replace: true }) }),
    says: ['flag differs: replace was false in the plan, is true now'],
  },
  {
    moved: '--fix-forward',
    current: run({ flags: flags({ forceStatefulRecreation: false, fixForward: true }) }),
    says: ['flag differs: fixForward was false in the plan, is true now'],
  },
  {
    moved: '--recreate-via-cc-api',
    current: run({
      flags: flags({ forceStatefulRecreation: false, recreateVia: { ccApi: ['Queue'], sdkProvider: [] } }),
    }),
    says: ['flag differs: recreateViaCcApi was none in the plan, is Queue now'],
  },
  {
    moved: '--recreate-via-sdk-provider',
    current: run({
      flags: flags({ forceStatefulRecreation: false, recreateVia: { ccApi: [], sdkProvider: ['Queue'] } }),
    }),
    says: ['flag differs: recreateViaSdkProvider was none in the plan, is Queue now'],
  },
  {
    moved: '--prefer-sdk-route',
    current: run({ flags: flags({ forceStatefulRecreation: false, routing: { preferSdkRoute: true } }) }),
    says: ['flag differs: preferSdkRoute was not given in the plan, is true now'],
  },
  {
    moved: '--pin-cc-api',
    current: run({ flags: flags({ forceStatefulRecreation: false, routing: { pinCcApi: ['Queue'] } }) }),
    says: ['flag differs: pinCcApi was none in the plan, is Queue now'],
  },
  {
    moved: 'the name prefix setting',
    current: run({ flags: flags({ forceStatefulRecreation: false, prefixUserSuppliedNames: true }) }),
    says: ['flag differs: prefixUserSuppliedNames was false in the plan, is true now'],
  },
];

describe('what moved since a plan was saved', () => {
  it.each(cases)('$moved', ({ current, says }) => {
    expect(savedPlanMoves(saved, current)).toEqual(says);
  });

  it('names every move at once', () => {
    const moves = savedPlanMoves(
      saved,
      run({
        cdkdVersion: '2.0.0',
        stack: { templateHash: OTHER_HASH, parameters: { Name: { value: 'two' } } },
      }),
    );
    expect(moves).toHaveLength(4);
  });

  it('sorted list flags compare as sets', () => {
    const a = flags({ forceStatefulRecreation: false, routing: { pinCcApi: ['B', 'A'] } });
    const b = flags({ forceStatefulRecreation: false, routing: { pinCcApi: ['A', 'B'] } });
    expect(a).toEqual(b);
  });
});

describe('the stacks a saved plan is for', () => {
  it('matches the same selection', () => {
    expect(stackSetMismatch(saved, ['App'])).toBeUndefined();
  });

  it('names a selected stack the file lacks and a file stack not selected', () => {
    expect(stackSetMismatch(saved, ['Other'])).toEqual({ missing: ['Other'], unselected: ['App'] });
  });

  it('is refused before any move is looked at, with its own code', () => {
    const refusal = catchError(() =>
      refuseMovedInputs('plan.json', saved, run({ stacks: [{ ...basis, displayName: 'Other' }] })),
    );
    expect(refusal.code).toBe('SAVED_PLAN_STACKS_MISMATCH');
    expect(refusal.message).toContain('selected but not in the plan: Other');
    expect(refusal.message).toContain('in the plan but not selected: App');
  });

  it('a move is refused as stale, naming the file and what to do', () => {
    const refusal = catchError(() =>
      refuseMovedInputs('plan.json', saved, run({ stack: { templateHash: OTHER_HASH } })),
    );
    expect(refusal.code).toBe('SAVED_PLAN_STALE');
    expect(refusal.message).toContain('The saved plan plan.json no longer matches; nothing was changed');
    expect(refusal.message).toContain('App: template differs');
    expect(refusal.hint).toContain('cdkd diff --out plan.json');
  });
});

function catchError(act: () => void): { code: string; message: string; hint: string | undefined } {
  try {
    act();
  } catch (error) {
    if (isCdkdError(error)) return error;
    throw error;
  }
  throw new Error('nothing was refused');
}

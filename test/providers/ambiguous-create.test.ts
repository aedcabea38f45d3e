import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../src/errors.js';
import { createAttempts } from '../../src/providers/ambiguous-create.js';
import {
  ResourceMadeError,
  type CreateResult,
  type LiveResource,
  type LocateAnswer,
  type Provider,
  type ProviderContext,
} from '../../src/providers/provider.js';

const lost = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const serverError = () =>
  Object.assign(new Error('boom'), { name: 'InternalFailure', $metadata: { httpStatusCode: 500 } });
const taken = () =>
  Object.assign(new Error('exists'), { name: 'EntityAlreadyExists', $metadata: { httpStatusCode: 409 } });
const refused = () =>
  Object.assign(new Error('bad'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } });

interface Script {
  kind?: 'sdk' | 'cc-api';
  /** What each create call does, in order: a result's id, or an error to throw. */
  creates: Array<string | (() => Error)>;
  /** What each locate answers, in order; absent: the provider has no locate. */
  locates?: LocateAnswer[];
  live?: LiveResource | undefined;
  updateFails?: boolean;
}

function fakeProvider(script: Script) {
  const calls: string[] = [];
  const creates = [...script.creates];
  const locates = script.locates ? [...script.locates] : undefined;
  const provider: Provider = {
    kind: script.kind ?? 'sdk',
    handles: () => true,
    canUpdateInPlace: () => true,
    create: async (): Promise<CreateResult> => {
      calls.push('create');
      const next = creates.shift();
      if (next === undefined) throw new Error('no create scripted');
      if (typeof next === 'function') throw next();
      return { physicalId: next, attributes: { Arn: `arn:${next}` } };
    },
    update: async (request) => {
      calls.push(`update:${JSON.stringify(request.previousProperties)}`);
      if (script.updateFails) throw serverError();
      return { physicalId: request.physicalId, attributes: { Arn: `arn:${request.physicalId}` } };
    },
    delete: async () => {},
    read: async (request) => {
      calls.push(`read:${request.physicalId}`);
      return script.live;
    },
    ...(locates && {
      locate: async () => {
        calls.push('locate');
        return locates.shift() ?? 'unknown';
      },
    }),
  };
  return { provider, calls };
}

const request = {
  logicalId: 'R',
  type: 'AWS::Test::Thing',
  properties: { A: 1, B: 2 },
  idempotencyToken: 't',
};
const context = {} as ProviderContext;

/** Runs the attempts as a retry would: again after each failure, up to `max` times. */
async function attempts(script: Script, max = 4) {
  const { provider, calls } = fakeProvider(script);
  const attempt = createAttempts(provider, request, context);
  const errors: unknown[] = [];
  for (let i = 0; i < max; i += 1) {
    try {
      return { result: await attempt(), calls, errors };
    } catch (error) {
      errors.push(error);
    }
  }
  return { result: undefined, calls, errors };
}

// Spec 003, "Ambiguous creates": what the attempt after a failure does, per failure and locate answer.
describe('the attempts of one create', () => {
  it('a refused create (4xx) is sent again without a locate', async () => {
    const run = await attempts({ creates: [refused, 'r-1'], locates: [] });
    expect(run.calls).toEqual(['create', 'create']);
    expect(run.result?.physicalId).toBe('r-1');
  });

  it('after a lost answer, a located resource completes the create: read, then only the template keys in line', async () => {
    const run = await attempts({
      creates: [lost],
      locates: [{ physicalId: 'r-made' }],
      live: { properties: { A: 1, Default: 'x' }, attributes: {}, creationIdentity: { Arn: 'arn:r-made' } },
    });
    expect(run.calls).toEqual(['create', 'locate', 'read:r-made', 'update:{"A":1}']);
    expect(run.result).toMatchObject({ physicalId: 'r-made', creationIdentity: { Arn: 'arn:r-made' } });
  });

  it("after a lost answer, 'none' sends the create again", async () => {
    const run = await attempts({ creates: [serverError, 'r-2'], locates: ['none'] });
    expect(run.calls).toEqual(['create', 'locate', 'create']);
    expect(run.result?.physicalId).toBe('r-2');
  });

  it("after a lost answer, 'unknown' sends it again, and a taken name is AMBIGUOUS_CREATE_NAME_TAKEN", async () => {
    const run = await attempts({ creates: [lost, taken], locates: ['unknown'] }, 2);
    expect(run.calls).toEqual(['create', 'locate', 'create']);
    const error = run.errors[1];
    expect(isCdkdError(error) && error.code).toBe('AMBIGUOUS_CREATE_NAME_TAKEN');
    expect(isCdkdError(error) && error.hint).toContain('cdkd import');
  });

  it('a provider without locate is treated as unknown: sent again, a taken name is the typed error', async () => {
    const run = await attempts({ creates: [lost, taken] }, 2);
    expect(run.calls).toEqual(['create', 'create']);
    expect(isCdkdError(run.errors[1]) && run.errors[1].code).toBe('AMBIGUOUS_CREATE_NAME_TAKEN');
  });

  it('a taken name without an earlier lost answer stays the service error', async () => {
    const run = await attempts({ creates: [taken], locates: [] }, 1);
    expect(isCdkdError(run.errors[0])).toBe(false);
    expect(run.calls).toEqual(['create']);
  });

  it('a located resource gone before it is read is created again', async () => {
    const run = await attempts({
      creates: [lost, 'r-3'],
      locates: [{ physicalId: 'r-gone' }],
      live: undefined,
    });
    expect(run.calls).toEqual(['create', 'locate', 'read:r-gone', 'create']);
    expect(run.result?.physicalId).toBe('r-3');
  });

  it('a located resource whose completion fails is reported made, and the next attempt completes it without a locate', async () => {
    const live = { properties: {}, attributes: {}, creationIdentity: { Arn: 'arn:r-made' } };
    const script: Script = { creates: [lost], locates: [{ physicalId: 'r-made' }], live, updateFails: true };
    const run = await attempts(script, 2);
    expect(run.errors[1]).toBeInstanceOf(ResourceMadeError);
    expect((run.errors[1] as ResourceMadeError).made).toEqual({
      physicalId: 'r-made',
      creationIdentity: { Arn: 'arn:r-made' },
    });
    expect(run.calls.filter((call) => call === 'locate')).toHaveLength(1);
  });

  it('once the retry gives up after lost answers, a resource one of them made is reported made', async () => {
    const live = { properties: {}, attributes: {}, creationIdentity: { Arn: 'arn:r-late' } };
    const { provider } = fakeProvider({
      creates: [lost, lost],
      locates: ['none', { physicalId: 'r-late' }],
      live,
    });
    const attempt = createAttempts(provider, request, context);
    const failures: unknown[] = [];
    for (let i = 0; i < 2; i += 1) await attempt().catch((error: unknown) => failures.push(error));
    const settled = await attempt.settle(failures[1]);
    expect(settled).toBeInstanceOf(ResourceMadeError);
    expect((settled as ResourceMadeError).made).toEqual({
      physicalId: 'r-late',
      creationIdentity: { Arn: 'arn:r-late' },
    });
  });

  it('a failure with no lost answer settles as itself, without a locate', async () => {
    const { provider, calls } = fakeProvider({ creates: [refused], locates: [{ physicalId: 'x' }] });
    const attempt = createAttempts(provider, request, context);
    const failure = await attempt().catch((error: unknown) => error);
    expect(await attempt.settle(failure)).toBe(failure);
    expect(calls).toEqual(['create']);
  });

  it('Cloud Control (ClientToken) sends again without a locate', async () => {
    const run = await attempts({ kind: 'cc-api', creates: [lost, 'cc-1'], locates: [] });
    expect(run.calls).toEqual(['create', 'create']);
  });
});

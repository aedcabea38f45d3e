import { describe, expect, it } from 'vitest';
import { StatesError } from '../../../src/sandbox/services/states/asl/errors.js';
import {
  runMachine,
  type Machine,
  type Runtime,
} from '../../../src/sandbox/services/states/asl/interpreter.js';

/** A runtime whose tasks are functions by resource name, on a clock that only moves when slept. */
function runtime(tasks: Record<string, (payload: unknown) => unknown> = {}) {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const history: string[] = [];
  const slept: number[] = [];
  const value: Runtime = {
    async invokeTask(resource, payload) {
      const task = tasks[resource];
      if (!task) throw new StatesError('States.TaskFailed', `no task ${resource}`);
      return task(payload);
    },
    now: () => now,
    async sleep(ms) {
      slept.push(ms);
      now += ms;
    },
    record: (type) => void history.push(type),
    stopped: () => false,
  };
  return { value, history, slept, now: () => now };
}

const run = (machine: Machine, input: unknown, rt = runtime()) =>
  runMachine(machine, input, rt.value, { Execution: { Id: 'exec-1', Name: 'one' } });

const single = (state: Record<string, unknown>, language?: string): Machine => ({
  StartAt: 'S',
  States: { S: { ...state, End: state.Type !== 'Succeed' && state.Type !== 'Fail' ? true : undefined } },
  ...(language ? { QueryLanguage: language } : {}),
});

describe('state types and JSONPath processing: one case per rule', () => {
  it.each<[string, Machine, unknown, unknown]>([
    ['Pass passes its input', single({ Type: 'Pass' }), { a: 1 }, { a: 1 }],
    [
      'Pass Result with ResultPath',
      single({ Type: 'Pass', Result: { v: 2 }, ResultPath: '$.r' }),
      { a: 1 },
      { a: 1, r: { v: 2 } },
    ],
    [
      'ResultPath null keeps the input',
      single({ Type: 'Pass', Result: 9, ResultPath: null }),
      { a: 1 },
      { a: 1 },
    ],
    [
      'InputPath then OutputPath',
      single({ Type: 'Pass', InputPath: '$.in', OutputPath: '$.x' }),
      { in: { x: 5 } },
      5,
    ],
    [
      'Parameters with paths, the context and an intrinsic',
      single({
        Type: 'Pass',
        Parameters: {
          'id.$': '$.id',
          'exec.$': '$$.Execution.Name',
          'label.$': "States.Format('order {} ({})', $.id, $.n)",
          fixed: 'k',
        },
      }),
      { id: 'o-1', n: 3 },
      { id: 'o-1', exec: 'one', label: 'order o-1 (3)', fixed: 'k' },
    ],
    [
      'intrinsics: arrays, JSON, math, hashing',
      single({
        Type: 'Pass',
        Parameters: {
          'parts.$': 'States.ArrayPartition(States.ArrayRange(1, 5, 1), 2)',
          'json.$': 'States.StringToJson(\'{"k":1}\')',
          'sum.$': 'States.MathAdd($.n, 4)',
          'has.$': 'States.ArrayContains($.list, 2)',
          'len.$': 'States.ArrayLength($.list)',
          'hash.$': "States.Hash('abc', 'SHA-256')",
          'b64.$': "States.Base64Encode('hi')",
          'split.$': "States.StringSplit('a,b;c', ',;')",
        },
      }),
      { n: 1, list: [1, 2, 2] },
      {
        parts: [[1, 2], [3, 4], [5]],
        json: { k: 1 },
        sum: 5,
        has: true,
        len: 3,
        hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
        b64: 'aGk=',
        split: ['a', 'b', 'c'],
      },
    ],
    [
      'Task with Parameters, ResultSelector and ResultPath',
      single({
        Type: 'Task',
        Resource: 'double',
        Parameters: { 'n.$': '$.n' },
        ResultSelector: { 'twice.$': '$.out' },
        ResultPath: '$.result',
      }),
      { n: 4 },
      { n: 4, result: { twice: 8 } },
    ],
    [
      'Choice picks the first matching rule, else the Default',
      {
        StartAt: 'C',
        States: {
          C: {
            Type: 'Choice',
            Choices: [
              {
                And: [
                  { Variable: '$.n', NumericGreaterThan: 10 },
                  { Variable: '$.tier', StringEquals: 'gold' },
                ],
                Next: 'Big',
              },
              { Variable: '$.name', StringMatches: 'ord*', Next: 'Named' },
              { Not: { Variable: '$.flag', IsPresent: true }, Next: 'NoFlag' },
            ],
            Default: 'Other',
          },
          Big: { Type: 'Pass', Result: 'big', End: true },
          Named: { Type: 'Pass', Result: 'named', End: true },
          NoFlag: { Type: 'Pass', Result: 'no flag', End: true },
          Other: { Type: 'Pass', Result: 'other', End: true },
        },
      },
      { n: 11, tier: 'silver', name: 'order-7', flag: true },
      'named',
    ],
    [
      'Parallel gives each branch the input and collects their outputs',
      single({
        Type: 'Parallel',
        Branches: [
          { StartAt: 'A', States: { A: { Type: 'Pass', InputPath: '$.a', End: true } } },
          {
            StartAt: 'B',
            States: {
              B: {
                Type: 'Task',
                Resource: 'double',
                Parameters: { 'n.$': '$.b' },
                OutputPath: '$.out',
                End: true,
              },
            },
          },
        ],
      }),
      { a: 'x', b: 2 },
      ['x', 4],
    ],
    [
      'Map runs the processor per item with ItemSelector and the item context',
      single({
        Type: 'Map',
        ItemsPath: '$.items',
        MaxConcurrency: 2,
        ItemSelector: { 'value.$': '$$.Map.Item.Value', 'index.$': '$$.Map.Item.Index', 'tag.$': '$.tag' },
        ItemProcessor: {
          StartAt: 'D',
          States: {
            D: {
              Type: 'Task',
              Resource: 'double',
              Parameters: { 'n.$': '$.value' },
              ResultPath: '$.d',
              End: true,
            },
          },
        },
      }),
      { items: [1, 2, 3], tag: 't' },
      [
        { value: 1, index: 0, tag: 't', d: { out: 2 } },
        { value: 2, index: 1, tag: 't', d: { out: 4 } },
        { value: 3, index: 2, tag: 't', d: { out: 6 } },
      ],
    ],
    ['Succeed ends with its input', single({ Type: 'Succeed', OutputPath: '$.k' }), { k: 'done' }, 'done'],
  ])('%s', async (_rule, machine, input, output) => {
    expect(
      await run(machine, input, runtime({ double: (p) => ({ out: (p as { n: number }).n * 2 }) })),
    ).toEqual({
      status: 'SUCCEEDED',
      output,
    });
  });

  it('Fail ends the execution with its error and cause', async () => {
    expect(await run(single({ Type: 'Fail', Error: 'Order.Rejected', Cause: 'too large' }), {})).toEqual({
      status: 'FAILED',
      error: 'Order.Rejected',
      cause: 'too large',
    });
  });

  it('Choice with no match and no Default fails with States.NoChoiceMatched', async () => {
    const machine = single({ Type: 'Choice', Choices: [{ Variable: '$.n', NumericEquals: 1, Next: 'S' }] });
    expect(await run(machine, { n: 2 })).toMatchObject({ status: 'FAILED', error: 'States.NoChoiceMatched' });
  });

  it('Wait sleeps on the clock for Seconds, SecondsPath or until a Timestamp', async () => {
    const rt = runtime();
    const machine: Machine = {
      StartAt: 'W1',
      States: {
        W1: { Type: 'Wait', Seconds: 30, Next: 'W2' },
        W2: { Type: 'Wait', SecondsPath: '$.delay', Next: 'W3' },
        W3: { Type: 'Wait', Timestamp: '2030-01-02T00:00:00Z', End: true },
      },
    };
    expect(await run(machine, { delay: 60 }, rt)).toEqual({ status: 'SUCCEEDED', output: { delay: 60 } });
    expect(rt.slept).toEqual([30_000, 60_000, 86_400_000 - 90_000]);
  });

  it('Retry retries with backoff, then Catch takes the error to its Next with ResultPath', async () => {
    const rt = runtime({
      flaky: () => {
        throw new StatesError('Service.Busy', 'try later');
      },
    });
    const machine: Machine = {
      StartAt: 'T',
      States: {
        T: {
          Type: 'Task',
          Resource: 'flaky',
          Retry: [
            { ErrorEquals: ['Other'], MaxAttempts: 5 },
            {
              ErrorEquals: ['Service.Busy'],
              IntervalSeconds: 2,
              MaxAttempts: 3,
              BackoffRate: 3,
              MaxDelaySeconds: 10,
            },
          ],
          Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Recover' }],
          End: true,
        },
        Recover: { Type: 'Pass', End: true },
      },
    };
    expect(await run(machine, { id: 1 }, rt)).toEqual({
      status: 'SUCCEEDED',
      output: { id: 1, error: { Error: 'Service.Busy', Cause: 'try later' } },
    });
    expect(rt.slept).toEqual([2000, 6000, 10_000]);
  });

  it('TimeoutSeconds fails a task that runs too long with States.Timeout, which States.TaskFailed does not catch', async () => {
    const rt = runtime({ slow: () => new Promise(() => undefined) });
    const machine = single({
      Type: 'Task',
      Resource: 'slow',
      TimeoutSeconds: 5,
      Catch: [{ ErrorEquals: ['States.TaskFailed'], Next: 'S' }],
    });
    expect(await run(machine, {}, rt)).toMatchObject({ status: 'FAILED', error: 'States.Timeout' });
  });

  it('a path that finds nothing fails with States.Runtime, which States.ALL does not catch', async () => {
    const machine = single({
      Type: 'Pass',
      InputPath: '$.missing',
      Catch: [{ ErrorEquals: ['States.ALL'], Next: 'S' }],
    });
    expect(await run(machine, {})).toMatchObject({ status: 'FAILED', error: 'States.Runtime' });
  });

  it('writes the history of what ran', async () => {
    const rt = runtime({ double: (p) => p });
    await run(
      {
        StartAt: 'A',
        States: { A: { Type: 'Pass', Next: 'B' }, B: { Type: 'Task', Resource: 'double', End: true } },
      },
      {},
      rt,
    );
    expect(rt.history).toEqual([
      'PassStateEntered',
      'PassStateExited',
      'TaskStateEntered',
      'TaskStateExited',
    ]);
  });
});

describe('JSONata', () => {
  it('Arguments, Output and Assign with $states and variables across states', async () => {
    const machine: Machine = {
      QueryLanguage: 'JSONata',
      StartAt: 'Price',
      States: {
        Price: {
          Type: 'Task',
          Resource: 'double',
          Arguments: { n: '{% $states.input.qty * 10 %}' },
          Assign: { price: '{% $states.result.out %}' },
          Output: { qty: '{% $states.input.qty %}' },
          Next: 'Check',
        },
        Check: {
          Type: 'Choice',
          Choices: [{ Condition: '{% $price > 50 %}', Next: 'Expensive' }],
          Default: 'Cheap',
        },
        Expensive: {
          Type: 'Pass',
          Output: { label: '{% "expensive: " & $string($price) %}', qty: '{% $states.input.qty %}' },
          End: true,
        },
        Cheap: { Type: 'Pass', Output: '{% "cheap" %}', End: true },
      },
    };
    const rt = runtime({ double: (p) => ({ out: (p as { n: number }).n * 2 }) });
    expect(await run(machine, { qty: 3 }, rt)).toEqual({
      status: 'SUCCEEDED',
      output: { label: 'expensive: 60', qty: 3 },
    });
  });

  it('a failing expression is States.QueryEvaluationError', async () => {
    const machine = single({ Type: 'Pass', Output: '{% $undefinedFunction() %}' }, 'JSONata');
    expect(await run(machine, {})).toMatchObject({ status: 'FAILED', error: 'States.QueryEvaluationError' });
  });

  it('Map over Items with the item in $states.context', async () => {
    const machine = single(
      {
        Type: 'Map',
        Items: '{% $states.input.xs %}',
        ItemSelector: { v: '{% $states.context.Map.Item.Value * 100 %}' },
        ItemProcessor: { StartAt: 'P', States: { P: { Type: 'Pass', End: true } } },
      },
      'JSONata',
    );
    expect(await run(machine, { xs: [1, 2] })).toEqual({
      status: 'SUCCEEDED',
      output: [{ v: 100 }, { v: 200 }],
    });
  });
});

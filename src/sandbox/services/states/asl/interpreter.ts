import { ruleHolds } from './choice.js';
import { errorMatches, runtimeError, StatesError } from './errors.js';
import { evaluateTemplate } from './jsonata-eval.js';
import {
  applyInputPath,
  applyOutputPath,
  applyResultPath,
  fillTemplate,
  requiredPath,
  type Scope,
} from './payload.js';

type State = Record<string, unknown>;
export interface Machine {
  StartAt: string;
  States: Record<string, State>;
  QueryLanguage?: string;
  TimeoutSeconds?: number;
}

/** What the interpreter needs from outside: tasks, time, and a history to write. */
export interface Runtime {
  /** Runs a Task's resource with its payload; a failure is thrown as a StatesError. */
  invokeTask(
    resource: string,
    payload: unknown,
    state: { name: string; timeoutSeconds?: number },
  ): Promise<unknown>;
  now(): number;
  /** Waits on the sandbox's clock. */
  sleep(ms: number): Promise<void>;
  record(type: string, details?: Record<string, unknown>): void;
  /** True once the execution was stopped. */
  stopped(): boolean;
}

export type ExecutionResult =
  | { status: 'SUCCEEDED'; output: unknown }
  | { status: 'FAILED'; error: string; cause: string }
  | { status: 'ABORTED' };

export class Aborted extends Error {}

interface Env {
  runtime: Runtime;
  context: Record<string, unknown>;
  variables: Record<string, unknown>;
  queryLanguage: string;
}

interface Step {
  output: unknown;
  next?: string;
}

/**
 * Runs an Amazon States Language machine on its input to the end: every state type (Task,
 * Pass, Choice, Wait, Parallel, Map, Succeed, Fail), Retry and Catch, JSONPath processing
 * (InputPath, Parameters, ResultSelector, ResultPath, OutputPath, intrinsic functions) and
 * JSONata (Arguments, Output, Assign, Condition). Pure but for the runtime it is handed.
 */
export async function runMachine(
  machine: Machine,
  input: unknown,
  runtime: Runtime,
  context: Record<string, unknown>,
): Promise<ExecutionResult> {
  const env: Env = { runtime, context, variables: {}, queryLanguage: machine.QueryLanguage ?? 'JSONPath' };
  try {
    return { status: 'SUCCEEDED', output: await runStates(machine, input, env) };
  } catch (error) {
    if (error instanceof Aborted) return { status: 'ABORTED' };
    if (error instanceof StatesError) return { status: 'FAILED', error: error.error, cause: error.cause };
    throw error;
  }
}

async function runStates(machine: Machine, input: unknown, env: Env): Promise<unknown> {
  let name = machine.StartAt;
  let current = input;
  for (;;) {
    if (env.runtime.stopped()) throw new Aborted();
    const state = machine.States[name];
    if (!state) throw runtimeError(`The state '${name}' is not in the machine`);
    const type = String(state.Type);
    env.runtime.record(`${type}StateEntered`, { name, input: JSON.stringify(current) });
    const language = String(state.QueryLanguage ?? env.queryLanguage);
    const scope = { ...env, queryLanguage: language };
    const context = {
      ...env.context,
      State: { Name: name, EnteredTime: new Date(env.runtime.now()).toISOString(), RetryCount: 0 },
    };
    const step = await runState(name, state, current, { ...scope, context });
    env.runtime.record(`${type}StateExited`, { name, output: JSON.stringify(step.output) });
    if (step.next === undefined) return step.output;
    current = step.output;
    name = step.next;
  }
}

async function runState(name: string, state: State, input: unknown, env: Env): Promise<Step> {
  const next = state.End === true ? undefined : (state.Next as string | undefined);
  switch (state.Type) {
    case 'Pass':
      return { output: await pass(state, input, env), ...(next ? { next } : {}) };
    case 'Task':
    case 'Parallel':
    case 'Map':
      return withRetries(name, state, input, env, next);
    case 'Choice':
      return choice(state, input, env);
    case 'Wait':
      return { output: await wait(state, input, env), ...(next ? { next } : {}) };
    case 'Succeed':
      return { output: await finish(state, input, env, input) };
    case 'Fail':
      throw await failure(state, input, env);
    default:
      throw runtimeError(`The state type '${String(state.Type)}' of '${name}' is not known`);
  }
}

const isJsonata = (env: Env): boolean => env.queryLanguage === 'JSONata';
const scopeOf = (env: Env): Scope => ({ context: env.context, variables: env.variables });
const states = (env: Env, input: unknown, more: Record<string, unknown> = {}) => ({
  states: { input, context: env.context, ...more },
  variables: env.variables,
});

/** JSONata's Assign, then Output (or the default) as the state's output. */
async function jsonataOutput(
  state: State,
  env: Env,
  input: unknown,
  more: Record<string, unknown>,
  fallback: unknown,
) {
  const output =
    state.Output === undefined ? fallback : await evaluateTemplate(state.Output, states(env, input, more));
  if (state.Assign !== undefined) {
    Object.assign(env.variables, await evaluateTemplate(state.Assign, states(env, input, more)));
  }
  return output;
}

/** JSONPath's Assign (paths resolved against the result), before the output paths apply. */
function jsonPathAssign(state: State, env: Env, result: unknown): void {
  if (state.Assign === undefined) return;
  Object.assign(env.variables, fillTemplate(state.Assign, result, scopeOf(env)));
}

async function pass(state: State, input: unknown, env: Env): Promise<unknown> {
  if (isJsonata(env)) return jsonataOutput(state, env, input, {}, input);
  const effective = applyInputPath(state.InputPath as string | null | undefined, input, scopeOf(env));
  const result =
    state.Parameters !== undefined
      ? fillTemplate(state.Parameters, effective, scopeOf(env))
      : state.Result !== undefined
        ? state.Result
        : effective;
  jsonPathAssign(state, env, result);
  const merged = applyResultPath(state.ResultPath as string | null | undefined, input, result);
  return applyOutputPath(state.OutputPath as string | null | undefined, merged, scopeOf(env));
}

async function finish(state: State, input: unknown, env: Env, fallback: unknown): Promise<unknown> {
  if (isJsonata(env)) return jsonataOutput(state, env, input, {}, fallback);
  const effective = applyInputPath(state.InputPath as string | null | undefined, input, scopeOf(env));
  return applyOutputPath(state.OutputPath as string | null | undefined, effective, scopeOf(env));
}

async function failure(state: State, input: unknown, env: Env): Promise<StatesError> {
  const read = async (field: string): Promise<string | undefined> => {
    if (isJsonata(env)) {
      const value = await evaluateTemplate(state[field], states(env, input));
      return value === undefined ? undefined : String(value);
    }
    const path = state[`${field}Path`];
    if (typeof path === 'string') return String(requiredPath(path, input, scopeOf(env), `${field}Path`));
    return state[field] === undefined ? undefined : String(state[field]);
  };
  return new StatesError((await read('Error')) ?? 'States.Fail', (await read('Cause')) ?? '');
}

async function choice(state: State, input: unknown, env: Env): Promise<Step> {
  const choices = (state.Choices as State[] | undefined) ?? [];
  if (isJsonata(env)) {
    for (const rule of choices) {
      if ((await evaluateTemplate(rule.Condition, states(env, input))) === true) {
        return {
          output: await jsonataOutput({ ...state, ...rule }, env, input, {}, input),
          next: String(rule.Next),
        };
      }
    }
  } else {
    const effective = applyInputPath(state.InputPath as string | null | undefined, input, scopeOf(env));
    const matched = choices.find((rule) => ruleHolds(rule, effective, scopeOf(env)));
    const output = applyOutputPath(state.OutputPath as string | null | undefined, effective, scopeOf(env));
    if (matched) {
      jsonPathAssign(matched, env, effective);
      return { output, next: String(matched.Next) };
    }
    if (state.Default !== undefined) return { output, next: String(state.Default) };
  }
  if (state.Default !== undefined) {
    return { output: await jsonataOutput(state, env, input, {}, input), next: String(state.Default) };
  }
  throw new StatesError('States.NoChoiceMatched', 'No Choice Rule matched and no Default was given');
}

async function wait(state: State, input: unknown, env: Env): Promise<unknown> {
  let until: number;
  if (isJsonata(env)) {
    if (state.Seconds !== undefined)
      until = env.runtime.now() + Number(await evaluateTemplate(state.Seconds, states(env, input))) * 1000;
    else until = Date.parse(String(await evaluateTemplate(state.Timestamp, states(env, input))));
  } else if (typeof state.Seconds === 'number') until = env.runtime.now() + state.Seconds * 1000;
  else if (typeof state.SecondsPath === 'string') {
    until =
      env.runtime.now() + Number(requiredPath(state.SecondsPath, input, scopeOf(env), 'SecondsPath')) * 1000;
  } else if (typeof state.Timestamp === 'string') until = Date.parse(state.Timestamp);
  else
    until = Date.parse(
      String(requiredPath(String(state.TimestampPath), input, scopeOf(env), 'TimestampPath')),
    );
  if (!Number.isFinite(until)) throw runtimeError('The Wait state has no valid Seconds or Timestamp');
  const ms = until - env.runtime.now();
  if (ms > 0) await env.runtime.sleep(ms);
  if (env.runtime.stopped()) throw new Aborted();
  return finish(state, input, env, input);
}

/** A Task, Parallel or Map under its Retry and Catch. */
async function withRetries(
  name: string,
  state: State,
  input: unknown,
  env: Env,
  next: string | undefined,
): Promise<Step> {
  const retriers = (state.Retry as State[] | undefined) ?? [];
  const counts = retriers.map(() => 0);
  for (;;) {
    try {
      const output = await work(name, state, input, env);
      return { output, ...(next ? { next } : {}) };
    } catch (error) {
      if (!(error instanceof StatesError)) throw error;
      const index = retriers.findIndex((retrier) =>
        errorMatches(retrier.ErrorEquals as string[], error.error),
      );
      const retrier = retriers[index];
      if (retrier && counts[index]! < Number(retrier.MaxAttempts ?? 3)) {
        const interval =
          Number(retrier.IntervalSeconds ?? 1) * Number(retrier.BackoffRate ?? 2) ** counts[index]!;
        const capped =
          retrier.MaxDelaySeconds !== undefined
            ? Math.min(interval, Number(retrier.MaxDelaySeconds))
            : interval;
        counts[index]! += 1;
        await env.runtime.sleep(capped * 1000);
        if (env.runtime.stopped()) throw new Aborted();
        continue;
      }
      const catcher = ((state.Catch as State[] | undefined) ?? []).find((c) =>
        errorMatches(c.ErrorEquals as string[], error.error),
      );
      if (!catcher) throw error;
      const errorOutput = { Error: error.error, Cause: error.cause };
      const output = isJsonata(env)
        ? await jsonataOutput(catcher, env, input, { errorOutput }, errorOutput)
        : applyResultPath(catcher.ResultPath as string | null | undefined, input, errorOutput);
      return { output, next: String(catcher.Next) };
    }
  }
}

/** One attempt of a Task, Parallel or Map, input to output. */
async function work(name: string, state: State, input: unknown, env: Env): Promise<unknown> {
  const scope = scopeOf(env);
  let payload: unknown;
  if (isJsonata(env)) {
    payload =
      state.Arguments === undefined ? input : await evaluateTemplate(state.Arguments, states(env, input));
  } else {
    const effective = applyInputPath(state.InputPath as string | null | undefined, input, scope);
    payload = state.Parameters === undefined ? effective : fillTemplate(state.Parameters, effective, scope);
  }
  let result: unknown;
  if (state.Type === 'Task') {
    result = await task(name, state, payload, env);
  } else if (state.Type === 'Parallel') {
    const branches = (state.Branches as Machine[] | undefined) ?? [];
    env.runtime.record('ParallelStateStarted');
    result = await Promise.all(branches.map((branch) => runStates(branch, payload, child(env, branch))));
    env.runtime.record('ParallelStateSucceeded');
  } else {
    result = await map(state, input, payload, env);
  }
  if (isJsonata(env)) return jsonataOutput(state, env, input, { result }, result);
  const selected =
    state.ResultSelector === undefined ? result : fillTemplate(state.ResultSelector, result, scope);
  jsonPathAssign(state, env, selected);
  const merged = applyResultPath(state.ResultPath as string | null | undefined, input, selected);
  return applyOutputPath(state.OutputPath as string | null | undefined, merged, scope);
}

async function task(name: string, state: State, payload: unknown, env: Env): Promise<unknown> {
  const resource = String(state.Resource ?? '');
  const timeoutSeconds = typeof state.TimeoutSeconds === 'number' ? state.TimeoutSeconds : undefined;
  const running = env.runtime.invokeTask(resource, payload, {
    name,
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
  });
  if (timeoutSeconds === undefined) return running;
  const timedOut = env.runtime.sleep(timeoutSeconds * 1000).then(() => {
    throw new StatesError(
      'States.Timeout',
      `The task '${name}' did not finish within ${timeoutSeconds} seconds`,
    );
  });
  return Promise.race([running, timedOut]);
}

async function map(state: State, input: unknown, payload: unknown, env: Env): Promise<unknown[]> {
  let items: unknown;
  if (isJsonata(env))
    items = state.Items === undefined ? input : await evaluateTemplate(state.Items, states(env, input));
  else
    items =
      state.ItemsPath === undefined
        ? payload
        : requiredPath(
            String(state.ItemsPath),
            applyInputPath(state.InputPath as string | null | undefined, input, scopeOf(env)),
            scopeOf(env),
            'ItemsPath',
          );
  if (!Array.isArray(items)) throw runtimeError(`The Map state's items are not an array`);
  const processor = (state.ItemProcessor ?? state.Iterator) as Machine | undefined;
  if (!processor) throw runtimeError('The Map state has no ItemProcessor');
  const selector = state.ItemSelector ?? (state.ItemProcessor ? undefined : state.Parameters);
  const limit = Number(state.MaxConcurrency ?? 0) || items.length || 1;
  env.runtime.record('MapStateStarted', { length: items.length });
  const results: unknown[] = new Array(items.length);
  let nextIndex = 0;
  const worker = async (): Promise<void> => {
    while (nextIndex < items.length) {
      const index = nextIndex++;
      const value = items[index];
      const itemEnv = child(env, processor);
      itemEnv.context = { ...env.context, Map: { Item: { Index: index, Value: value } } };
      let itemInput = value;
      if (selector !== undefined) {
        itemInput = isJsonata(env)
          ? await evaluateTemplate(selector, states(itemEnv, input))
          : fillTemplate(
              selector,
              applyInputPath(state.InputPath as string | null | undefined, input, scopeOf(env)),
              scopeOf(itemEnv),
            );
      }
      env.runtime.record('MapIterationStarted', { index });
      results[index] = await runStates(processor, itemInput, itemEnv);
      env.runtime.record('MapIterationSucceeded', { index });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(items.length, 1)) }, worker));
  env.runtime.record('MapStateSucceeded');
  return results;
}

/** A branch or iteration: the outer variables visible, its own assignments kept to itself. */
function child(env: Env, machine: Machine): Env {
  return {
    ...env,
    variables: { ...env.variables },
    queryLanguage: machine.QueryLanguage ?? env.queryLanguage,
  };
}

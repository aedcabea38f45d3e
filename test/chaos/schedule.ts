import type { FaultSpec } from '../../src/sandbox/admin/faults.js';
import { prng } from '../helpers/prng.js';
import { RECREATABLE, type ChaosVersion } from './chaos-app.js';

/** How a step's command is stopped: by a signal once it printed `marker` `count` times, or after `delayMs`. */
export type Kill =
  | { signal: 'SIGKILL' | 'SIGINT'; marker: string; count: number }
  | { signal: 'SIGKILL' | 'SIGINT'; delayMs: number };

/** One command of a schedule, with the sandbox fault it runs under and the kill that stops it, if any. */
export type Step = { fault?: FaultSpec; kill?: Kill } & (
  | { command: 'deploy'; version: ChaosVersion; noRollback: boolean }
  | { command: 'recreate'; version: ChaosVersion; logicalId: string; layer: 'cc-api' | 'sdk-provider' }
  | { command: 'destroy' }
  | { command: 'rollback'; revertFailed: boolean }
  | { command: 'orphan-import'; logicalId: string }
  | { command: 'tamper' }
  | { command: 'drift'; mode: 'read' | 'accept' | 'revert' }
  | { command: 'scrub' }
);

export interface Schedule {
  seed: number;
  steps: Step[];
}

/** The calls a fault may hit, by what a command sends: the resources' own, Cloud Control's, Lambda's, the state bucket's. */
export const MAKES: ReadonlyArray<[string, string]> = [
  ['sqs', 'CreateQueue'],
  ['sqs', 'SetQueueAttributes'],
  ['sns', 'CreateTopic'],
  ['ssm', 'PutParameter'],
  ['logs', 'CreateLogGroup'],
  ['logs', 'PutRetentionPolicy'],
  ['cloudcontrolapi', 'CreateResource'],
  ['cloudcontrolapi', 'UpdateResource'],
  ['cloudcontrolapi', 'GetResourceRequestStatus'],
  ['iam', 'CreateRole'],
  ['lambda', 'CreateFunction'],
  ['lambda', 'Invoke'],
];
export const REMOVES: ReadonlyArray<[string, string]> = [
  ['sqs', 'DeleteQueue'],
  ['sns', 'DeleteTopic'],
  ['ssm', 'DeleteParameter'],
  ['logs', 'DeleteLogGroup'],
  ['cloudcontrolapi', 'DeleteResource'],
  ['cloudcontrolapi', 'GetResourceRequestStatus'],
  ['iam', 'DeleteRole'],
  ['lambda', 'DeleteFunction'],
  ['lambda', 'Invoke'],
];
export const STATE: ReadonlyArray<[string, string]> = [
  ['s3', 'PutObject'],
  ['s3', 'GetObject'],
  ['s3', 'DeleteObject'],
];

/** Printed while a resource operation starts: a kill after the nth lands mid-run. */
export const OPERATION_STARTED = ' started';

/**
 * The schedule a seed stands for: the first deploy, then 3 to 7 commands picked at random
 * (deploys of any generation, recreates, destroys, rollbacks, an orphan and re-import, an
 * out-of-band change and drift, scrub), each with a fault on a call it makes (or on the state
 * bucket) about 60% of the time and a kill about 40% of the time. The same seed always gives the same schedule.
 */
export function scheduleFor(seed: number): Schedule {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const version = (): ChaosVersion => pick([1, 2, 3] as const);

  const fault = (targets: ReadonlyArray<[string, string]>): FaultSpec | undefined => {
    if (!chance(0.6)) return undefined;
    const [service, operation] = pick(chance(0.2) ? STATE : targets);
    const shape = pick(['error', 'server-error', 'latency', 'dropped', 'lost-answer'] as const);
    const nth = 1 + Math.floor(random() * 2);
    switch (shape) {
      case 'error':
        return { service, operation, nth, errorCode: 'ValidationError', httpStatus: 400, message: 'chaos' };
      case 'server-error':
        return {
          service,
          operation,
          nth,
          every: true,
          count: 1 + Math.floor(random() * 6),
          errorCode: 'InternalError',
          httpStatus: 500,
        };
      case 'latency':
        return { service, operation, every: true, latencyMs: 100 + Math.floor(random() * 1400) };
      case 'dropped':
        return { service, operation, nth, dropConnection: true };
      case 'lost-answer':
        return { service, operation, nth, dropConnection: true, afterApply: true };
    }
  };
  const kill = (withOperations: boolean): Kill | undefined => {
    if (!chance(0.4)) return undefined;
    const signal = chance(0.7) ? 'SIGKILL' : 'SIGINT';
    return withOperations
      ? { signal, marker: OPERATION_STARTED, count: 1 + Math.floor(random() * 3) }
      : { signal, delayMs: 200 + Math.floor(random() * 2000) };
  };
  const step = (): Step => {
    const command = pick([
      'deploy',
      'deploy',
      'recreate',
      'destroy',
      'rollback',
      'orphan-import',
      'tamper',
      'drift',
      'scrub',
    ] as const);
    const chaos = (
      withOperations: boolean,
      targets: ReadonlyArray<[string, string]> = [...MAKES, ...REMOVES],
    ) => {
      const f = fault(targets);
      const k = kill(withOperations);
      return { ...(f ? { fault: f } : {}), ...(k ? { kill: k } : {}) };
    };
    switch (command) {
      case 'deploy':
        return {
          command,
          version: version(),
          noRollback: chance(0.3),
          ...chaos(true, [...MAKES, ...REMOVES]),
        };
      case 'recreate':
        return {
          command,
          version: version(),
          logicalId: pick(RECREATABLE),
          layer: chance(0.5) ? 'cc-api' : 'sdk-provider',
          ...chaos(true),
        };
      case 'destroy':
        return { command, ...chaos(true, REMOVES) };
      case 'rollback':
        return { command, revertFailed: chance(0.5), ...chaos(false) };
      case 'orphan-import':
        return { command, logicalId: pick(['Queue', 'Topic', 'Param']), ...chaos(false, STATE) };
      case 'tamper':
        return { command };
      case 'drift':
        return {
          command,
          mode: pick(['read', 'accept', 'revert'] as const),
          ...chaos(false, [['ssm', 'PutParameter'], ['ssm', 'GetParameter'], ...STATE]),
        };
      case 'scrub':
        return { command, ...chaos(false) };
    }
  };
  const first: Step = { command: 'deploy', version: 1, noRollback: false };
  const count = 3 + Math.floor(random() * 5);
  return { seed, steps: [first, ...Array.from({ length: count }, step)] };
}

/** One line per step, as the harness prints a schedule. */
export function describeStep(step: Step): string {
  const head = (() => {
    switch (step.command) {
      case 'deploy':
        return `deploy v${step.version}${step.noRollback ? ' --no-rollback' : ''}`;
      case 'recreate':
        return `deploy v${step.version} --recreate-via-${step.layer} ${step.logicalId}`;
      case 'rollback':
        return `rollback${step.revertFailed ? ' --revert-failed' : ''}`;
      case 'orphan-import':
        return `orphan ${step.logicalId}, then import it back`;
      case 'tamper':
        return 'change /chaos/param out of band';
      case 'drift':
        return `drift${step.mode === 'read' ? '' : ` --${step.mode}`}`;
      default:
        return step.command;
    }
  })();
  const fault = step.fault ? ` | fault ${describeFault(step.fault)}` : '';
  const kill = step.kill
    ? ` | ${step.kill.signal} ${'marker' in step.kill ? `after ${step.kill.count} operations started` : `after ${step.kill.delayMs} ms`}`
    : '';
  return `${head}${fault}${kill}`;
}

function describeFault(fault: FaultSpec): string {
  const what = fault.dropConnection
    ? fault.afterApply
      ? 'answer lost after it applied'
      : 'connection dropped'
    : fault.errorCode
      ? `${fault.errorCode} ${fault.httpStatus}`
      : `${fault.latencyMs} ms latency`;
  const which = fault.every
    ? `every call${fault.count ? ` (${fault.count})` : ''}`
    : `call ${fault.nth ?? 1}`;
  return `${fault.service}:${fault.operation} ${what}, ${which}`;
}

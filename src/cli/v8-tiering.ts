// Node's built-in modules cdkd's commands load, loaded before the flag changes: V8 refuses a
// code cache made under other flags, Node's own for its built-ins too, and compiling these
// again would cost a third of what the flag saves.
import 'node:child_process';
import 'node:fs/promises';
import 'node:http';
import 'node:https';
import 'node:readline/promises';
import 'node:stream/web';
import 'node:timers/promises';
import 'node:zlib';
import { setFlagsFromString } from 'node:v8';

/**
 * How much bytecode a function runs before V8 weighs optimizing it: 8 times Node 20's default
 * (V8 11's 67,584). At the default, a CLI run of under a second has TurboFan compile dozens of
 * lukewarm functions on V8's worker threads, work that rarely pays back before the process
 * exits (about 100 ms of a no-op redeploy's 560 ms of CPU). Measured alternately with the
 * budget raised: a no-op 11% less CPU, a fresh 500-resource deploy 22% less CPU and 9% less
 * wall time (bench/noop-deploy.ts). Code that stays hot (a long deploy, the sandbox, watch)
 * is still optimized, a little later.
 */
export const INTERRUPT_BUDGET = 8 * 67_584;

/**
 * Sets the budget for everything compiled from now on. The built CLI's entry calls it before
 * the compile cache, whose entries V8 keys by its flags: every run sets the same ones.
 */
export function tuneTiering(): void {
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}

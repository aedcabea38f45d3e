import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startSandbox } from '../../src/sandbox/server.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { untilQuiet } from '../helpers/sandbox-quiet.js';
import { sandboxEnv } from '../helpers/sandbox-env.js';
import { Session } from '../../src/toolkit/session/session.js';
import { CHAOS_STACK, writeChaosAssembly, type ChaosVersion } from './chaos-app.js';
import { runCommand, type CommandRun } from './run-step.js';
import { describeStep, type Schedule, type Step } from './schedule.js';

export interface RunLine {
  /** What ran, as the schedule prints it. */
  what: string;
  /** `exit N`, `killed (SIGKILL) exit N`, or why nothing ran. */
  result: string;
}

export interface ScheduleOutcome {
  seed: number;
  steps: RunLine[];
  recovery: RunLine[];
  /** Why the invariant does not hold, or the recovery could not end clean; absent: it passed. */
  failure?: string;
}

/** Records the sandbox holds no resource for: a custom resource is its handler's, not the sandbox's. */
const NOT_IN_INVENTORY = /^(Custom::|AWS::CloudFormation::CustomResource)/;

/**
 * Runs one schedule on a sandbox of its own through the built CLI: its steps with their faults
 * and kills (a lock left behind by a command not SIGKILLed fails it), then the recovery a user
 * would run (faults gone: force-unlock, rollback, deploy, destroy), checking after the deploy
 * that every resource the sandbox holds is in state or a journal and every record names a live
 * resource, and after the destroy that nothing is left.
 */
export async function runSchedule(schedule: Schedule): Promise<ScheduleOutcome> {
  const sandbox = await startSandbox({ port: 0 });
  const env = sandboxEnv(sandbox.url);
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  const work = mkdtempSync(join(tmpdir(), 'cdkd-chaos-'));
  const outcome: ScheduleOutcome = { seed: schedule.seed, steps: [], recovery: [] };
  try {
    const assembly = (version: ChaosVersion) => writeChaosAssembly(join(work, `v${version}`), version);
    const dirs = { 1: assembly(1), 2: assembly(2), 3: assembly(3) };
    const bootstrap = await runCli(['bootstrap'], { env });
    if (bootstrap.code !== 0) throw new Error(`cdkd bootstrap failed: ${bootstrap.stderr}`);
    const context: StepContext = {
      env,
      dirs,
      sandboxUrl: sandbox.url,
      version: 1,
      released: new Map(),
      problems: [],
    };
    for (const step of schedule.steps) outcome.steps.push(await runStep(step, context));
    const failure = await recover(context, outcome.recovery);
    const failures = [...context.problems, ...(failure ? [failure] : [])];
    if (failures.length > 0) outcome.failure = failures.join('; ');
  } catch (error) {
    outcome.failure = `harness error: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await sandbox.stop();
    rmSync(work, { recursive: true, force: true });
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  return outcome;
}

interface StepContext {
  env: Record<string, string>;
  dirs: Record<ChaosVersion, string>;
  sandboxUrl: string;
  /** The generation the last deploy aimed at: what the recovery deploys. */
  version: ChaosVersion;
  /** Physical id → logical id of what `cdkd orphan` let go of and no import took back yet. */
  released: Map<string, string>;
  /** What the steps broke that the recovery cannot show (a lock left behind). */
  problems: string[];
}

async function runStep(step: Step, context: StepContext): Promise<RunLine> {
  const what = describeStep(step);
  if (step.command === 'tamper') return { what, result: await tamper(context) };
  if (step.fault)
    await admin(context.sandboxUrl, 'faults', { method: 'POST', body: JSON.stringify(step.fault) });
  let run: CommandRun | string;
  try {
    run = await commandOf(step, context);
  } finally {
    // A call a killed client sent still runs on the server; what it leaves is the step's too.
    await untilQuiet(context.sandboxUrl);
    await admin(context.sandboxUrl, 'faults', { method: 'DELETE' });
  }
  if (typeof run === 'string') return { what, result: run };
  const lock = await leftLock(run, step, context);
  return { what, result: `${describeRun(run)}${lock ? ` (${lock})` : ''}` };
}

/**
 * The lock a command left behind. One that ended on its own or on Ctrl+C must have released it,
 * unless the state bucket answered errors (an error fault on S3 can fail the release itself), so
 * one left is a finding; after a SIGKILL it is expected. Either way the user clears it, so the schedule's next
 * commands run rather than meet LOCK_HELD.
 */
async function leftLock(run: CommandRun, step: Step, context: StepContext): Promise<string | undefined> {
  const backend = await new Session({ statePrefix: 'cdkd' }).stateBackend();
  const found = await backend.locks.find({ stackName: CHAOS_STACK, region: 'us-east-1' });
  if (found.kind === 'absent') return undefined;
  const refused = step.fault?.service === 's3' && step.fault.errorCode !== undefined;
  if (run.killedBy !== 'SIGKILL' && !refused) {
    const how = run.killedBy === 'SIGINT' ? 'after Ctrl+C' : `after exit ${run.code}`;
    context.problems.push(`${describeStep(step)}: the lock of ${CHAOS_STACK} was left behind ${how}`);
  }
  const unlocked = await runCli(['force-unlock', CHAOS_STACK, '--yes'], { env: context.env });
  if (unlocked.code !== 0) throw new Error(`cdkd force-unlock failed: ${lastLines(unlocked.stderr)}`);
  return 'lock left behind, force-unlocked';
}

async function commandOf(step: Step, context: StepContext): Promise<CommandRun | string> {
  const { env, dirs } = context;
  const app = (version: ChaosVersion) => ['-a', dirs[version]];
  switch (step.command) {
    case 'deploy':
      context.version = step.version;
      return runCommand(
        ['deploy', ...app(step.version), '--yes', ...(step.noRollback ? ['--no-rollback'] : [])],
        env,
        step.kill,
      );
    case 'recreate':
      context.version = step.version;
      return runCommand(
        ['deploy', ...app(step.version), '--yes', `--recreate-via-${step.layer}`, step.logicalId],
        env,
        step.kill,
      );
    case 'destroy':
      return runCommand(['destroy', ...app(context.version), '--yes'], env, step.kill);
    case 'rollback':
      return runCommand(
        ['rollback', CHAOS_STACK, '--yes', ...(step.revertFailed ? ['--revert-failed'] : [])],
        env,
        step.kill,
      );
    case 'orphan-import':
      return orphanThenImport(step.logicalId, step.kill, context);
    case 'drift':
      return runCommand(
        ['drift', CHAOS_STACK, '--yes', ...(step.mode === 'read' ? [] : [`--${step.mode}`])],
        env,
        step.kill,
      );
    case 'scrub':
      return runCommand(['scrub', '--yes'], env, step.kill);
    case 'tamper':
      return 'not a command';
  }
}

/** `cdkd orphan` of a resource, then `cdkd import` of it back under its physical id (the kill hits the import). */
async function orphanThenImport(
  logicalId: string,
  kill: Step['kill'],
  context: StepContext,
): Promise<CommandRun | string> {
  const physicalId = (await recorded(logicalId))?.physicalId;
  if (physicalId === undefined) return `skipped: state records no ${logicalId}`;
  const app = ['-a', context.dirs[context.version]];
  const orphaned = await runCli(['orphan', CHAOS_STACK, logicalId, ...app, '--force', '--yes'], {
    env: context.env,
  });
  if (orphaned.code !== 0) return { ...orphaned, stderr: `orphan: ${orphaned.stderr}` };
  context.released.set(physicalId, logicalId);
  const imported = await runCommand(
    ['import', CHAOS_STACK, ...app, '--resource', `${logicalId}=${physicalId}`, '--yes'],
    context.env,
    kill,
  );
  await untilQuiet(context.sandboxUrl);
  if ((await recorded(logicalId))?.physicalId === physicalId) context.released.delete(physicalId);
  return imported;
}

/**
 * An out-of-band change drift can see: the parameter's value set by hand. Only a parameter that
 * exists is changed; making one would be a resource no stack created, which cdkd rightly refuses.
 */
async function tamper(context: StepContext): Promise<string> {
  const ssm = new SSMClient({ endpoint: context.sandboxUrl, region: 'us-east-1' });
  try {
    await ssm.send(new GetParameterCommand({ Name: '/chaos/param' }));
    await ssm.send(
      new PutParameterCommand({ Name: '/chaos/param', Value: 'tampered', Overwrite: true, Type: 'String' }),
    );
    return 'changed';
  } catch (error) {
    return `not changed: ${error instanceof Error ? error.name : String(error)}`;
  } finally {
    ssm.destroy();
  }
}

/**
 * What a user runs once things went wrong, with the sandbox answering normally: force-unlock,
 * rollback, then a deploy of the last generation (the invariant is checked after it) and a
 * destroy (after which nothing may be left). Answers why it failed, or undefined.
 */
async function recover(context: StepContext, lines: RunLine[]): Promise<string | undefined> {
  const { env } = context;
  const run = async (args: string[], ok: ReadonlyArray<number | null>) => {
    const result = await runCli(args, { env });
    await untilQuiet(context.sandboxUrl);
    const shown = args.map((arg) => (arg === context.dirs[context.version] ? `<v${context.version}>` : arg));
    lines.push({ what: shown.join(' '), result: describeRun(result) });
    return ok.includes(result.code)
      ? undefined
      : `${args[0]} exited ${result.code}: ${lastLines(result.stderr)}`;
  };
  let failed =
    (await run(['force-unlock', CHAOS_STACK, '--yes'], [0, 1])) ??
    (await run(['rollback', CHAOS_STACK, '--yes'], [0, 2]));
  // What an interrupted orphan-and-import let go of is imported again, as its user would.
  for (const [physicalId, logicalId] of context.released) {
    if (failed) break;
    const app = ['-a', context.dirs[context.version]];
    const resource = ['--resource', `${logicalId}=${physicalId}`];
    failed = await run(['import', CHAOS_STACK, ...app, ...resource, '--yes'], [0, 1, 2]);
    if ((await recorded(logicalId))?.physicalId === physicalId) context.released.delete(physicalId);
  }
  failed ??= await run(['deploy', '-a', context.dirs[context.version], '--yes'], [0, 2]);
  if (failed) return `recovery: ${failed}`;
  const afterDeploy = await accounting(context);
  if (afterDeploy) return `after the recovery deploy: ${afterDeploy}`;
  const destroyed = await run(['destroy', '-a', context.dirs[context.version], '--yes'], [0]);
  if (destroyed) return `recovery: ${destroyed}`;
  const afterDestroy = await accounting(context);
  if (afterDestroy) return `after the final destroy: ${afterDestroy}`;
  const left = (await stackResources(context.sandboxUrl)).filter(
    (resource) => !isReleased(context, resource.id),
  );
  return left.length > 0
    ? `after the final destroy the sandbox still holds ${left.map((r) => `${r.type} ${r.id}`).join(', ')}`
    : undefined;
}

/** accountFor, less what the schedule let go of on purpose and the records the sandbox cannot list. */
async function accounting(context: StepContext): Promise<string | undefined> {
  const found = await accountFor(context.sandboxUrl);
  const untracked = found.untracked.filter((entry) => !isReleased(context, entry.split(' ')[1] ?? ''));
  const dead = found.deadRecords.filter((entry) => !NOT_IN_INVENTORY.test(entry.split(': ')[1] ?? ''));
  const problems = [
    ...(untracked.length > 0 ? [`recorded nowhere: ${untracked.join(', ')}`] : []),
    ...(dead.length > 0 ? [`records of resources that are gone: ${dead.join(', ')}`] : []),
  ];
  return problems.length > 0 ? problems.join('; ') : undefined;
}

/** Whether `id`, as the sandbox lists it (a queue by name), is one the schedule let go of on purpose. */
function isReleased(context: StepContext, id: string): boolean {
  return [...context.released.keys()].some((released) => released === id || released.endsWith(`/${id}`));
}

async function recorded(logicalId: string) {
  const backend = await new Session({ statePrefix: 'cdkd' }).stateBackend();
  return (await backend.store.read({ stackName: CHAOS_STACK, region: 'us-east-1' }))?.document.resources[
    logicalId
  ];
}

async function admin(sandboxUrl: string, path: string, init: RequestInit): Promise<void> {
  const response = await fetch(`${sandboxUrl}/_sandbox/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`sandbox admin ${path}: ${response.status} ${await response.text()}`);
}

function describeRun(run: CommandRun): string {
  const killed = run.killedBy ? `killed (${run.killedBy}) ` : '';
  const tail = run.code === 0 && !run.killedBy ? '' : `: ${lastLines(run.stderr)}`;
  return `${killed}exit ${run.code}${tail}`;
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-2).join(' / ').slice(0, 400);
}

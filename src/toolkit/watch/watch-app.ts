import { selectStacks, type CloudAssembly, type StackArtifact } from '../../assembly/index.js';
import type { StackDeployResult } from '../../engine/index.js';
import type { IoHost } from '../../messages/index.js';
import { deployApp, type DeployAppInput } from '../deploy/deploy-app.js';
import { note, warn, type ToolkitIo } from '../io.js';
import type { Session } from '../session/session.js';
import { changedStacks, stackFingerprint } from './changed-stacks.js';
import { watchFiles, type FileWatcher } from './file-watcher.js';
import { LogTail } from './log-tail.js';
import { CoalescingQueue } from './run-queue.js';
import { projectWatchSettings, watchFilter } from './watch-settings.js';

/** The deploy settings a watch passes to every deploy it runs (the stacks are its to choose). */
export type WatchDeployOptions = Omit<
  DeployAppInput,
  'session' | 'assembly' | 'patterns' | 'all' | 'exclusively' | 'dryRun' | 'signal' | 'io' | 'command'
>;

/** One deploy of a watch, as its caller shows it. */
export interface WatchRun {
  io: IoHost;
  /** The deploy ended: its results, or the error it failed with (rolled back as any deploy's). */
  end(outcome: { results: StackDeployResult[] } | { error: unknown }): void;
}

export interface WatchAppInput extends ToolkitIo {
  session: Session;
  /** The directory watched (the project's, where cdk.json is). */
  dir: string;
  /** `--output`: the assembly's directory, left unwatched. */
  output?: string;
  synthesize(): Promise<CloudAssembly>;
  patterns: string[];
  all: boolean;
  exclusively: boolean;
  deploy: WatchDeployOptions;
  /** A deploy starts, of these stacks (display names). */
  startRun(stacks: string[]): WatchRun;
  /** A synthesis failed or selected nothing deployable: shown, and the watch goes on. */
  failed(error: unknown): void;
  /** `--logs`: each new log line of the stacks' Lambda functions. */
  logLine?(functionName: string, message: string): void;
  /** The first SIGINT/SIGTERM: idle, the watch ends; mid-deploy, the deploy ends as on interrupt. */
  signal: AbortSignal;
  debounceMs?: number;
}

/** How a watch ended: idle, or with the deploy in flight finished (or stopped: the error). */
export type WatchOutcome = { stoppedDuring: 'idle' } | { stoppedDuring: 'deploy'; error?: unknown };

/**
 * `cdkd watch`: deploys the selected stacks, then watches the project's files (cdk.json's
 * `watch` patterns, watch-settings.ts) and after each quiet change synthesizes again and
 * deploys the stacks whose fingerprint changed (changed-stacks.ts) through the ordinary
 * journaled deploy: one deploy at a time, changes made meanwhile coalesced into one more
 * (run-queue.ts). A failed synthesis or deploy is shown and the watch goes on. Ends at the
 * first signal: at once when idle, else once the deploy in flight has ended as `cdkd deploy`
 * ends on interrupt (finished, or its journal saved and the lock released).
 */
export async function watchApp(input: WatchAppInput): Promise<WatchOutcome> {
  const { signal } = input;
  const settings = projectWatchSettings(input.dir, input.output);
  note(
    input,
    `Watching ${input.dir} for changes (include ${settings.include.join(', ')}; exclude ${settings.exclude.join(', ')}).`,
  );
  const deployed = new Map<string, string>();
  const logs = input.logLine && new LogTail(input.session, input.logLine, (message) => warn(input, message));
  let stoppedDeploy: { error?: unknown } | undefined;

  const runOnce = async () => {
    const synthesisStarted = Date.now();
    let assembly: CloudAssembly;
    let selected: StackArtifact[];
    try {
      assembly = await input.synthesize();
      selected = selectStacks(assembly, {
        patterns: input.patterns,
        all: input.all,
        defaultSelection: 'only-single',
        extend: input.exclusively ? 'none' : 'upstream',
      });
    } catch (error) {
      if (!signal.aborted) input.failed(error);
      return;
    }
    const synthesisMs = Date.now() - synthesisStarted;
    const fingerprints = selected.map((stack) => ({
      displayName: stack.displayName,
      fingerprint: stackFingerprint(stack),
    }));
    const changed = changedStacks(deployed, fingerprints);
    if (changed.length === 0) {
      note(input, `No stack changed (synthesis ${seconds(synthesisMs)}); nothing to deploy.`);
      return;
    }
    if (signal.aborted) return;
    const run = input.startRun(changed);
    const done = new Set<string>();
    const io: IoHost = {
      notify: (message) => {
        // Each stack's end, as it comes: a failure of another leaves these deployed.
        if (message.code === 'CDKD_R2003') done.add((message.data as StackDeployResult).stackName);
        return run.io.notify(message);
      },
      ask: (question) => run.io.ask(question),
    };
    const deployStarted = Date.now();
    try {
      const results = await deployApp({
        ...input.deploy,
        session: input.session,
        assembly,
        patterns: changed,
        all: false,
        exclusively: true,
        dryRun: false,
        io,
        command: input.command,
        signal,
      });
      run.end({ results });
      note(
        input,
        `Deployed ${changed.join(', ')} in ${seconds(Date.now() - deployStarted)} (synthesis ${seconds(synthesisMs)}).`,
      );
      if (signal.aborted) stoppedDeploy = {};
    } catch (error) {
      run.end({ error });
      if (signal.aborted) stoppedDeploy = { error };
    }
    for (const stack of selected) {
      const fingerprint = fingerprints.find((entry) => entry.displayName === stack.displayName)!;
      // A stack that did not deploy is tried again at the next change, whatever changed.
      if (done.has(stack.stackName)) deployed.set(stack.displayName, fingerprint.fingerprint);
      else if (changed.includes(stack.displayName)) deployed.delete(stack.displayName);
    }
    if (logs && !signal.aborted) {
      await logs
        .follow(selected)
        .catch((error: unknown) =>
          warn(input, `--logs: cannot list the stacks' functions: ${String(error)}`),
        );
    }
  };

  const queue = new CoalescingQueue(runOnce, (error) => input.failed(error));
  let watcher: FileWatcher | undefined;
  try {
    watcher = await watchFiles(input.dir, watchFilter(settings), () => queue.trigger(), input.debounceMs);
    queue.trigger();
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await queue.stop();
    // A synthesis the signal cut short changed nothing: that is idle too.
    return stoppedDeploy ? { stoppedDuring: 'deploy', ...stoppedDeploy } : { stoppedDuring: 'idle' };
  } finally {
    watcher?.close();
    logs?.close();
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

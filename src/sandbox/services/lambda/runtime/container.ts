import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { StreamLog } from './function-logs.js';
import type { Launch } from '../../../../lambda-runtime/launch.js';
import type {
  ChildMessage,
  FunctionErrorPayload,
  InvokeMessage,
} from '../../../../lambda-runtime/protocol.js';
import { RESULT_FD } from '../../../../lambda-runtime/protocol.js';

/** Lambda's limit on a function's init phase (loading its module), which its Timeout does not include. */
const INIT_LIMIT_MS = 10_000;

/** How one invocation ended, as the runtime (or the sandbox, for a timeout or crash) says. */
export type RunOutcome = { kind: 'result'; payload: string } | { kind: 'error'; error: FunctionErrorPayload };

/**
 * Every running child, killed if the sandbox's process exits without stopping the sandbox
 * (a child stuck before it reads its stdin would not notice its parent is gone).
 */
const liveChildren = new Set<ChildProcess>();
let exitHooked = false;

function track(child: ChildProcess): void {
  liveChildren.add(child);
  child.once('close', () => liveChildren.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const running of liveChildren) running.kill('SIGKILL');
  });
}

interface Invocation {
  requestId: string;
  settle: (outcome: RunOutcome) => void;
  timer: NodeJS.Timeout;
  timedOut: () => void;
}

/**
 * One execution environment: a child process running a runtime's bootstrap, one
 * invocation at a time. What it prints, line by line, goes to `onLog`; a timeout or an
 * exit mid-invocation kills it (the next invocation starts a fresh one, as on Lambda).
 */
export class Container {
  /** Receives every line the function prints; the invoker points it at the current invocation. */
  onLog: (line: string) => void;
  /** Receives the runtime's own notices (src/lambda-runtime/protocol.ts); by default they go to the function's log. */
  onNotice: (text: string) => void = (text) => this.onLog(text);
  private readonly child: ChildProcess;
  private current: Invocation | undefined;
  private exited = false;

  constructor(
    launch: Launch,
    env: Record<string, string>,
    cwd: string,
    readonly log: StreamLog,
  ) {
    this.onLog = (line) => void log.write(line);
    this.child = spawn(launch.command, launch.args, {
      cwd,
      env: { ...env, ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    track(this.child);
    for (const stream of [this.child.stdout, this.child.stderr]) {
      createInterface({ input: stream as Readable }).on('line', (line) => this.onLog(line));
    }
    createInterface({ input: this.child.stdio[RESULT_FD] as Readable }).on('line', (line) =>
      this.receive(JSON.parse(line) as ChildMessage),
    );
    // A write to a process that just died: the close handler reports it.
    (this.child.stdin as Writable).on('error', () => {});
    this.child.on('error', (error) => this.ended(`Error: ${error.message}`));
    this.child.on('close', (code, signal) =>
      this.ended(
        `Error: Runtime exited with error: ${signal ? `signal: ${signal.toLowerCase()}` : `exit status ${code}`}`,
      ),
    );
  }

  get alive(): boolean {
    return !this.exited;
  }

  /**
   * Runs one invocation; a timeout kills the process and answers Lambda's timeout error.
   * The function's Timeout counts from the child's `started` (its handler loaded); a first
   * invocation also waits for init, up to Lambda's init limit.
   */
  run(message: InvokeMessage): Promise<RunOutcome> {
    return new Promise((settle) => {
      if (this.exited) {
        settle(runtimeExit(message.requestId, 'Error: Runtime exited'));
        return;
      }
      const timedOut = (): void => {
        this.current = undefined;
        this.kill();
        settle({
          kind: 'error',
          error: {
            errorType: 'Sandbox.Timedout',
            errorMessage: `RequestId: ${message.requestId} Error: Task timed out after ${(message.timeoutMs / 1000).toFixed(2)} seconds`,
          },
        });
      };
      this.current = {
        requestId: message.requestId,
        settle,
        timer: setTimeout(timedOut, INIT_LIMIT_MS + message.timeoutMs),
        timedOut,
      };
      (this.child.stdin as Writable).write(`${JSON.stringify(message)}\n`);
    });
  }

  kill(): void {
    if (this.exited) return;
    // Not reusable from now on, though its exit is reported a little later.
    this.exited = true;
    this.child.kill('SIGKILL');
  }

  private receive(message: ChildMessage): void {
    if (message.type === 'log') {
      this.onLog(message.text);
      return;
    }
    if (message.type === 'notice') {
      this.onNotice(message.text);
      return;
    }
    const current = this.current;
    if (!current || current.requestId !== message.requestId) return;
    if (message.type === 'started') {
      clearTimeout(current.timer);
      current.timer = setTimeout(current.timedOut, Math.max(0, message.deadlineMs - Date.now()));
      return;
    }
    this.finish(
      message.type === 'result'
        ? { kind: 'result', payload: message.payload }
        : { kind: 'error', error: message.error },
    );
  }

  private ended(reason: string): void {
    this.exited = true;
    const current = this.current;
    if (current) this.finish(runtimeExit(current.requestId, reason));
  }

  private finish(outcome: RunOutcome): void {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    clearTimeout(current.timer);
    current.settle(outcome);
  }
}

function runtimeExit(requestId: string, reason: string): RunOutcome {
  return {
    kind: 'error',
    error: { errorType: 'Runtime.ExitError', errorMessage: `RequestId: ${requestId} ${reason}` },
  };
}

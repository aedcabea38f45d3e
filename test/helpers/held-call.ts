import { startCli } from './cli.js';
import { sandboxEnv } from './sandbox.js';

async function admin(sandboxUrl: string, path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${sandboxUrl}/_sandbox/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  return response.json();
}

/** How many calls of `service:Operation` (the sandbox's module name) the sandbox has seen. */
export async function callCount(sandboxUrl: string, call: string): Promise<number> {
  const snapshot = (await admin(sandboxUrl, 'calls')) as { calls: Record<string, { count: number }> };
  return snapshot.calls[call]?.count ?? 0;
}

/** Resolves once `condition` holds, polling. */
export async function until(condition: () => Promise<boolean>, everyMs = 25): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}

/**
 * Runs the built CLI with `args` while the sandbox holds every `service:Operation` call for
 * `holdMs` before it acts on it, kills the CLI with SIGKILL once the first such call has
 * arrived (`after` more calls of it first, if given), then waits out the hold: the call the
 * killed process sent takes effect after its death, as a request already on its way to AWS
 * does. Returns the killed process's stderr.
 */
export async function killedDuringCall(
  sandboxUrl: string,
  args: string[],
  held: { service: string; operation: string; holdMs: number; after?: number },
): Promise<string> {
  const call = `${held.service}:${held.operation}`;
  await admin(sandboxUrl, 'faults', {
    method: 'POST',
    body: JSON.stringify({
      service: held.service,
      operation: held.operation,
      latencyMs: held.holdMs,
      every: true,
    }),
  });
  const before = await callCount(sandboxUrl, call);
  const run = startCli(args, 'started', { env: sandboxEnv(sandboxUrl) });
  let exited = false;
  void run.done.then(() => (exited = true));
  await until(async () => exited || (await callCount(sandboxUrl, call)) > before + (held.after ?? 0));
  if (exited) throw new Error(`cdkd ${args.join(' ')} ended before ${call} was sent:\n${run.stderr()}`);
  run.child.kill('SIGKILL');
  await run.done;
  await admin(sandboxUrl, 'faults', { method: 'DELETE' });
  await new Promise((resolve) => setTimeout(resolve, held.holdMs + 500));
  return run.stderr();
}

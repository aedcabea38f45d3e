/** A node that failed, and why. */
export interface WalkFailure {
  node: string;
  error: unknown;
}

export interface WalkOptions {
  /** Nothing new starts once this says so; what is running finishes. */
  stop?: () => boolean;
  /** Go on with every node that does not wait for a failed one (deletions do). */
  continueOnFailure?: boolean;
}

/**
 * Runs `run` on every node once each node it waits for has finished, as many at once as the
 * graph allows (CloudFormation works on independent resources in parallel). After the first
 * failure (unless `continueOnFailure`), or once `stop` says so, nothing new starts.
 */
export async function walkGraph(
  nodes: readonly string[],
  waitsFor: (node: string) => readonly string[],
  run: (node: string) => Promise<void>,
  options: WalkOptions = {},
): Promise<{ failures: WalkFailure[]; finished: Set<string> }> {
  const stop = options.stop ?? (() => false);
  const pending = new Set(nodes);
  const finished = new Set<string>();
  const failures: WalkFailure[] = [];
  const running = new Map<string, Promise<void>>();
  const inWalk = new Set(nodes);
  const ready = (node: string) => waitsFor(node).every((other) => !inWalk.has(other) || finished.has(other));
  for (;;) {
    if ((failures.length === 0 || options.continueOnFailure) && !stop()) {
      for (const node of [...pending]) {
        if (running.has(node) || !ready(node)) continue;
        running.set(
          node,
          run(node).then(
            () => void finished.add(node),
            (error: unknown) => void failures.push({ node, error }),
          ),
        );
      }
    }
    if (running.size === 0) break;
    const settled = await Promise.race([...running].map(([node, promise]) => promise.then(() => node)));
    running.delete(settled);
    pending.delete(settled);
  }
  return { failures, finished };
}

/**
 * Runs a DAG of tasks: each starts the moment its dependencies have finished
 * (no level barriers), up to `concurrency` at once; when more are ready than
 * slots, the highest priority (the engine passes the longest remaining path)
 * goes first. After a failure or an abort nothing new starts, in-flight tasks
 * finish, and the outcome says what ran, what failed and what never started.
 * A task may hand its slot back before it finishes (`release`): a resource whose
 * provider call returned frees its slot while its state save is still on the way,
 * and its dependents still wait for the task itself.
 */
export interface WalkNode {
  id: string;
  dependsOn: readonly string[];
}

export interface WalkOptions {
  concurrency: number;
  /** A task's fixed rank (higher first), read once per task when the walk starts. */
  priority: (id: string) => number;
  signal?: AbortSignal;
}

export interface WalkOutcome {
  succeeded: string[];
  failed: Array<{ id: string; error: unknown }>;
  notStarted: string[];
}

export async function walkDag(
  nodes: readonly WalkNode[],
  run: (id: string, release: () => void) => Promise<void>,
  options: WalkOptions,
): Promise<WalkOutcome> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  }
  const order = new Map(nodes.map((node, index) => [node.id, index]));
  const waitingOn = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const node of nodes) {
    waitingOn.set(node.id, node.dependsOn.length);
    for (const dependency of node.dependsOn) {
      if (!order.has(dependency))
        throw new Error(`${node.id} depends on ${dependency}, which is not in the graph`);
      dependents.set(dependency, [...(dependents.get(dependency) ?? []), node.id]);
    }
  }

  const outcome: WalkOutcome = { succeeded: [], failed: [], notStarted: [] };
  const ready = nodes.filter((node) => node.dependsOn.length === 0).map((node) => node.id);
  const started = new Set<string>();
  const rank = new Map(nodes.map((node) => [node.id, options.priority(node.id)]));
  let unsorted = true;
  /** Tasks holding a slot. */
  let running = 0;
  /** Tasks not yet finished, with or without a slot. */
  let inFlight = 0;
  let finished = false;

  return new Promise<WalkOutcome>((resolve) => {
    const stopped = () => outcome.failed.length > 0 || options.signal?.aborted === true;

    const finish = () => {
      outcome.notStarted = nodes.map((node) => node.id).filter((id) => !started.has(id));
      resolve(outcome);
    };

    const pump = () => {
      // Sorted once per batch of newly ready tasks: taking from the front keeps it sorted.
      if (unsorted && ready.length > 1) {
        ready.sort((a, b) => rank.get(b)! - rank.get(a)! || order.get(a)! - order.get(b)!);
      }
      unsorted = false;
      while (!stopped() && running < options.concurrency && ready.length > 0) {
        const id = ready.shift()!;
        started.add(id);
        running += 1;
        inFlight += 1;
        let holdsSlot = true;
        const release = () => {
          if (!holdsSlot) return;
          holdsSlot = false;
          running -= 1;
          // Deferred: a release made while `run` is still starting must not re-enter this loop.
          queueMicrotask(pump);
        };
        run(id, release).then(
          () => settle(id, undefined, release),
          (error: unknown) => settle(id, error ?? new Error(`${id} failed`), release),
        );
      }
      if (inFlight === 0 && !finished) {
        finished = true;
        finish();
      }
    };

    const settle = (id: string, error: unknown, release: () => void) => {
      release();
      inFlight -= 1;
      if (error === undefined) {
        outcome.succeeded.push(id);
        for (const dependent of dependents.get(id) ?? []) {
          const left = waitingOn.get(dependent)! - 1;
          waitingOn.set(dependent, left);
          if (left === 0) {
            ready.push(dependent);
            unsorted = true;
          }
        }
      } else {
        outcome.failed.push({ id, error });
      }
      pump();
    };

    pump();
  });
}

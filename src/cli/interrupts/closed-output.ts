/**
 * stdout or stderr whose reader went away (`cdkd deploy 2>&1 | head -3`, a CI log reader
 * that stopped, a parent's spawnSync timeout dropping the pipes): writing to it fails with
 * EPIPE, which would otherwise end the process at once with its lock and journal left.
 * cdkd stops printing to that stream and tells its listeners, which stop the run as a
 * SIGTERM would (interrupts.ts).
 */
const CLOSED_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ECONNRESET']);

const listeners = new Set<() => void>();
const closed = new Set<NodeJS.WriteStream>();

export function guardOutputs(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!CLOSED_CODES.has(error.code ?? '')) throw error;
      if (closed.has(stream)) return;
      closed.add(stream);
      silence(stream);
      for (const listener of [...listeners]) listener();
    });
  }
}

/** Calls `listener` when an output stream loses its reader; returns the unsubscribe. */
export function onOutputClosed(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Later writes succeed without output, so no printing path needs to know. */
function silence(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }) as typeof stream.write;
}

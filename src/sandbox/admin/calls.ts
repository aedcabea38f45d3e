export interface CallCount {
  count: number;
  mutating: boolean;
}

export interface CallsSnapshot {
  /** Keyed by `service:Operation`. */
  calls: Record<string, CallCount>;
  total: number;
  mutating: number;
}

/** Counts calls by `service:Operation`, including those a fault made fail. */
export class CallCounter {
  private counts = new Map<string, CallCount>();

  record(service: string, operation: string, mutating: boolean): void {
    const key = `${service}:${operation}`;
    const entry = this.counts.get(key);
    if (entry) entry.count += 1;
    else this.counts.set(key, { count: 1, mutating });
  }

  snapshot(): CallsSnapshot {
    const calls: Record<string, CallCount> = {};
    let total = 0;
    let mutating = 0;
    for (const [key, entry] of [...this.counts].sort(([a], [b]) => a.localeCompare(b))) {
      calls[key] = { ...entry };
      total += entry.count;
      if (entry.mutating) mutating += entry.count;
    }
    return { calls, total, mutating };
  }

  reset(): void {
    this.counts.clear();
  }
}

import type { Container } from './container.js';

/** Concurrent execution environments per function version; more invocations wait their turn. */
const MAX_PER_VERSION = 4;
/** A warm environment nobody used for this long is stopped (Lambda reclaims idle ones too). */
const IDLE_MS = 10 * 60_000;

interface VersionPool {
  /** The configuration revision the environments run: a new one retires them. */
  revision: string;
  idle: Array<{ container: Container; timer: NodeJS.Timeout }>;
  busy: Set<Container>;
  waiting: Array<() => void>;
}

/**
 * Warm child processes per function version (key: the version's ARN). A container is
 * reused while its version's code and configuration (its revision) are unchanged; a new
 * revision, a deleted function or `closeAll` kills them, so no process outlives its code.
 */
export class ContainerPool {
  private readonly pools = new Map<string, VersionPool>();
  private closed = false;

  /** A container for one invocation: an idle warm one, a new one, or the next one freed. */
  async acquire(key: string, revision: string, start: () => Container): Promise<Container> {
    for (;;) {
      if (this.closed) throw new Error('the sandbox is stopping');
      const pool = this.pool(key, revision);
      const warm = pool.idle.pop();
      if (warm) {
        clearTimeout(warm.timer);
        if (!warm.container.alive) continue;
        pool.busy.add(warm.container);
        return warm.container;
      }
      if (pool.busy.size < MAX_PER_VERSION) {
        const container = start();
        pool.busy.add(container);
        return container;
      }
      await new Promise<void>((wake) => pool.waiting.push(wake));
    }
  }

  release(key: string, container: Container): void {
    const pool = this.pools.get(key);
    if (!pool?.busy.delete(container) || !container.alive || this.closed) {
      container.kill();
    } else {
      const timer = setTimeout(() => this.expire(key, container), IDLE_MS);
      timer.unref();
      pool.idle.push({ container, timer });
    }
    pool?.waiting.shift()?.();
  }

  /** Kills the environments of every version whose key starts with the prefix (a function's ARN). */
  retire(prefix: string, keep: (key: string, revision: string) => boolean = () => false): void {
    for (const [key, pool] of this.pools) {
      if (!key.startsWith(prefix) || keep(key, pool.revision)) continue;
      this.drop(key, pool);
    }
  }

  /** Kills every environment, busy ones included (their invocations end with Runtime.ExitError). */
  closeAll(): void {
    this.closed = true;
    for (const [key, pool] of this.pools) {
      for (const container of pool.busy) container.kill();
      this.drop(key, pool);
    }
  }

  private pool(key: string, revision: string): VersionPool {
    const existing = this.pools.get(key);
    if (existing && existing.revision === revision) return existing;
    if (existing) this.drop(key, existing);
    const pool: VersionPool = { revision, idle: [], busy: new Set(), waiting: [] };
    this.pools.set(key, pool);
    return pool;
  }

  /** Stops a pool's idle environments now and its busy ones when they are released. */
  private drop(key: string, pool: VersionPool): void {
    for (const { container, timer } of pool.idle) {
      clearTimeout(timer);
      container.kill();
    }
    pool.idle = [];
    this.pools.delete(key);
    for (const wake of pool.waiting.splice(0)) wake();
  }

  private expire(key: string, container: Container): void {
    const pool = this.pools.get(key);
    if (!pool) return;
    pool.idle = pool.idle.filter((entry) => entry.container !== container);
    container.kill();
  }
}

import { PreconditionFailed, type S3Objects, type WriteCondition } from '../../src/state/s3-objects.js';

/**
 * S3Objects kept in memory, with S3's ETag preconditions: what the state layer reads and
 * writes, for tests that look at what a reader would find at any moment (after a kill).
 * `failPuts(n, match)` refuses the next n writes whose key contains `match`.
 */
export class MemoryObjects {
  readonly objects = new Map<string, { text: string; etag: string }>();
  private writes = 0;
  private failures: { count: number; match: string } = { count: 0, match: '' };

  location(key: string): string {
    return `s3://memory/${key}`;
  }

  failPuts(count: number, match = ''): void {
    this.failures = { count, match };
  }

  async get(key: string) {
    await Promise.resolve();
    return this.objects.get(key);
  }

  async put(key: string, text: string, condition?: WriteCondition): Promise<string> {
    await Promise.resolve();
    if (this.failures.count > 0 && key.includes(this.failures.match)) {
      this.failures.count -= 1;
      throw new Error('write refused');
    }
    const held = this.objects.get(key);
    if (condition && 'ifMatch' in condition && held?.etag !== condition.ifMatch)
      throw new PreconditionFailed(key);
    if (condition && 'ifNoneMatch' in condition && held) throw new PreconditionFailed(key);
    const etag = `"etag-${++this.writes}"`;
    this.objects.set(key, { text, etag });
    return etag;
  }

  async delete(key: string): Promise<void> {
    await Promise.resolve();
    this.objects.delete(key);
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.delete(key);
  }

  async listKeys(prefix: string): Promise<string[]> {
    await Promise.resolve();
    return [...this.objects.keys()].filter((key) => key.startsWith(prefix)).sort();
  }

  keysUnder(prefix: string): string[] {
    return [...this.objects.keys()].filter((key) => key.startsWith(prefix));
  }

  asS3Objects(): S3Objects {
    return this as unknown as S3Objects;
  }
}

/** One call the endpoint answered, as the admin API lists it. */
export interface RecentCall {
  /** When it arrived (sandbox clock, ISO). */
  at: string;
  service: string;
  operation: string;
  /** From arrival to answer, injected delays included. */
  latencyMs: number;
  /** HTTP status answered; 0 when a fault dropped the connection. */
  status: number;
  /** What an injected fault did to it: an error code, `dropped connection` or `+N ms`. */
  fault?: string;
}

/** The last `capacity` calls, newest first: a bounded ring so a long run holds no more. */
export class RecentCalls {
  private readonly ring: RecentCall[] = [];
  private next = 0;

  constructor(private readonly capacity = 200) {}

  record(call: RecentCall): void {
    if (this.ring.length < this.capacity) this.ring.push(call);
    else this.ring[this.next] = call;
    this.next = (this.next + 1) % this.capacity;
  }

  list(): RecentCall[] {
    const oldestFirst =
      this.ring.length < this.capacity
        ? this.ring
        : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return oldestFirst.map((call) => ({ ...call })).reverse();
  }

  reset(): void {
    this.ring.length = 0;
    this.next = 0;
  }
}

/** One delivery from one service to another, as the sandbox's call log shows it. */
export interface Delivery {
  /** Sandbox time, ISO 8601. */
  time: string;
  /** The delivering service's signing name (`sns`, `s3`, `events`, `scheduler`, `lambda`, `states`). */
  from: string;
  /** What sent it: a topic, bucket, rule, schedule, event source mapping or execution ARN. */
  source: string;
  /** The receiving resource's ARN. */
  target: string;
  /** The action the delivery is, as a policy names it (`sqs:SendMessage`, `lambda:InvokeFunction`). */
  action: string;
  outcome: 'delivered' | 'denied' | 'failed';
  /** Why it was denied or failed, in AWS's words where it has some. */
  reason?: string;
}

const KEPT = 1000;

/** The latest deliveries between services (the oldest dropped past 1,000). */
export class DeliveryLog {
  private entries: Delivery[] = [];

  record(delivery: Delivery): void {
    this.entries.push(delivery);
    if (this.entries.length > KEPT) this.entries.splice(0, this.entries.length - KEPT);
  }

  list(): Delivery[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  reset(): void {
    this.entries = [];
  }
}

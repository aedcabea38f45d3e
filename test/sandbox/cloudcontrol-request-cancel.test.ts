import { describe, expect, it } from 'vitest';
import { RequestTracker, type Outcome } from '../../src/sandbox/services/cloudcontrol/requests.js';
import { MemoryStorage } from '../../src/sandbox/storage/storage.js';

// Cloud Control's CancelResourceRequest against the request's progress: a cancel that reaches a
// request before its handler runs makes nothing; one that reaches it while the handler runs is
// too late, and the request ends as the handler ends (else the resource made has no owner).
const fields = {
  fingerprint: 'f',
  typeName: 'AWS::EC2::VPC',
  operation: 'CREATE' as const,
  region: 'us-east-1',
};

function gate() {
  let open!: (outcome: Outcome) => void;
  const opened = new Promise<Outcome>((resolve) => (open = resolve));
  return { open, opened };
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('RequestTracker.cancel', () => {
  it('cancels a request whose handler has not started: nothing runs', async () => {
    let ran = false;
    const tracker = await RequestTracker.load(new MemoryStorage(), async () => {
      ran = true;
      return { identifier: 'vpc-1' };
    });
    const accepted = await tracker.accept(fields, 50);
    expect(await tracker.cancel(tracker.get(accepted.requestToken)!)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(tracker.get(accepted.requestToken)!.status).toBe('CANCEL_COMPLETE');
    expect(ran).toBe(false);
    tracker.close();
  });

  it('a cancel that reaches a running handler is too late: the request ends SUCCESS with what it made', async () => {
    const handler = gate();
    let started = false;
    const tracker = await RequestTracker.load(new MemoryStorage(), () => {
      started = true;
      return handler.opened;
    });
    const accepted = await tracker.accept(fields, 0);
    await until(() => started);
    const record = tracker.get(accepted.requestToken)!;
    expect(await tracker.cancel(record)).toBe(true);
    expect(record.status).toBe('IN_PROGRESS');
    handler.open({ identifier: 'vpc-2' });
    await until(() => record.status !== 'IN_PROGRESS');
    expect(record).toMatchObject({ status: 'SUCCESS', identifier: 'vpc-2' });
    expect(await tracker.cancel(record)).toBe(false);
    tracker.close();
  });
});

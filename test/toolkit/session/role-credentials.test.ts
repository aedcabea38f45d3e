import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Session } from '../../../src/toolkit/session/session.js';
import { useSandbox } from '../../helpers/sandbox.js';

// The session's role credentials against the sandbox's STS (whose sessions last DurationSeconds,
// default an hour, as AWS's): one AssumeRole per role for every client and every stack, and a
// second one shortly before the first session expires, never after. Only Date is faked: the
// SDK's own credential cache and cdkd's read the same clock as the sandbox's expirations.
const CI = '111111111111';
const TARGET = '222222222222';
const REGION = 'us-east-1';
const HOUR = 3_600_000;

const sandbox = useSandbox();

async function assumeRoleCalls(): Promise<number> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/calls`);
  const { calls } = (await response.json()) as { calls: Record<string, { count: number }> };
  return calls['sts:AssumeRole']?.count ?? 0;
}

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID = CI;
  const iam = new IAMClient({
    endpoint: sandbox.current.url,
    region: REGION,
    credentials: { accessKeyId: TARGET, secretAccessKey: 'sandbox-secret' },
  });
  await iam.send(
    new CreateRoleCommand({
      RoleName: `cdkd-hnb659fds-deploy-role-${TARGET}-${REGION}`,
      AssumeRolePolicyDocument: JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { AWS: CI }, Action: 'sts:AssumeRole' }],
      }),
    }),
  );
  iam.destroy();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a deploy role's credentials: cached per role, renewed before they expire", () => {
  it('assumes once for many clients and accounts sessions, again within five minutes of expiry, and not after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2030-01-01T00:00:00Z');
    vi.setSystemTime(start);
    const session = new Session({ region: REGION, statePrefix: 'cdkd' });
    const target = await session.forAccount({ accountId: TARGET, region: REGION });
    const before = await assumeRoleCalls();
    expect(before).toBeGreaterThan(0);

    const identity = async (at: number) => {
      vi.setSystemTime(start + at);
      const again = await session.forAccount({ accountId: TARGET, region: REGION });
      expect(again).toBe(target);
      const sts = await again.clients.sts();
      return (await sts.send(new GetCallerIdentityCommand({}))).Account;
    };

    expect(await identity(10 * 60_000)).toBe(TARGET);
    await target.clients.s3();
    expect(await identity(54 * 60_000)).toBe(TARGET);
    expect(await assumeRoleCalls()).toBe(before);

    // 4 minutes before the hour-long session ends: renewed now, while the old one still works.
    expect(await identity(HOUR - 4 * 60_000)).toBe(TARGET);
    expect(await assumeRoleCalls()).toBe(before + 1);
    // The renewed session lasts an hour from its own start: nothing more is assumed after the first one's end.
    expect(await identity(HOUR + 30 * 60_000)).toBe(TARGET);
    expect(await assumeRoleCalls()).toBe(before + 1);
  });
});

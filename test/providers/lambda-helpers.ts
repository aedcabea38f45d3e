import { setTimeout as realSleep } from 'node:timers/promises';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { AwsClients } from '../../src/aws/client-factory.js';
import type { Clock } from '../../src/providers/clock.js';
import type { ProviderContext } from '../../src/providers/provider.js';

export const ACCOUNT = '000000000000';
export const ROLE = `arn:aws:iam::${ACCOUNT}:role/lambda-exec`;

/** A ProviderContext whose clients reach the sandbox `useSandbox()` started. */
export function lambdaContext(stackName = 'LambdaStack'): ProviderContext {
  return {
    clients: new AwsClients({ region: 'us-east-1' }),
    accountId: ACCOUNT,
    region: 'us-east-1',
    stackName,
  };
}

export function lambdaClientFor(context: ProviderContext): Promise<LambdaClient> {
  return context.clients.client(LambdaClient, 'us-east-1');
}

/** Virtual time: `now` advances by what was slept; the real wait is `scale` of it. */
export function scaledClock(scale: number): Clock & { slept: number[] } {
  const slept: number[] = [];
  let now = 0;
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
      await realSleep(ms * scale);
    },
  };
}

/** Sets the sandbox latency model (create / update delays per type). */
export async function setLatency(url: string, types: Record<string, Record<string, number>>): Promise<void> {
  const response = await fetch(`${url}/_sandbox/latency`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ types }),
  });
  if (!response.ok) throw new Error(`latency: ${response.status} ${await response.text()}`);
}

/** Minimal function properties, with inline code. */
export function functionProperties(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Role: ROLE,
    Runtime: 'nodejs20.x',
    Handler: 'index.handler',
    Code: { ZipFile: 'exports.handler = async () => 1;' },
    ...extra,
  };
}

import type { SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it, vi } from 'vitest';
import { awsContextLookups } from '../../src/cli/context-lookups.js';

const request = { account: '123456789012', region: 'eu-west-1', parameterName: '/app/name' };

function lookups(send: (command: { input: unknown }) => Promise<unknown>, callerAccount?: string) {
  const ssm = vi.fn(async (_region?: string) => ({ send }) as unknown as SSMClient);
  const caller = async () => (callerAccount ? { account: callerAccount } : {});
  return { ssm, lookups: awsContextLookups({ ssm }, caller) };
}

describe('awsContextLookups (CLI wiring of the SSM context provider)', () => {
  it("reads the parameter in the lookup's region", async () => {
    const send = vi.fn(async (_command: { input: unknown }) => ({ Parameter: { Value: 'v1' } }));
    const { ssm, lookups: l } = lookups(send, '123456789012');
    expect(await l.ssmParameter(request)).toBe('v1');
    expect(ssm).toHaveBeenCalledWith('eu-west-1');
    expect(send.mock.calls[0]?.[0]).toMatchObject({ input: { Name: '/app/name' } });
  });

  it('answers undefined for a parameter that does not exist', async () => {
    const notFound = Object.assign(new Error('not found'), { name: 'ParameterNotFound' });
    const { lookups: l } = lookups(() => Promise.reject(notFound));
    expect(await l.ssmParameter(request)).toBeUndefined();
  });

  it('refuses a lookup in another account than the credentials', async () => {
    const send = vi.fn(async () => ({}));
    const { lookups: l } = lookups(send, '999999999999');
    await expect(l.ssmParameter(request)).rejects.toMatchObject({ code: 'CONTEXT_LOOKUP_FAILED' });
    expect(send).not.toHaveBeenCalled();
  });
});

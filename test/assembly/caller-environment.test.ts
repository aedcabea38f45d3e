import type { STSClient } from '@aws-sdk/client-sts';
import { describe, expect, it } from 'vitest';
import { probeCallerEnvironment } from '../../src/cli/options/caller-environment.js';

function clients(region: () => Promise<string>, send: () => Promise<unknown>) {
  return { region, sts: async () => ({ send }) as unknown as STSClient };
}

describe('probeCallerEnvironment', () => {
  it('returns the account and region when STS answers', async () => {
    const probe = clients(
      async () => 'eu-west-1',
      async () => ({ Account: '123456789012' }),
    );
    expect(await probeCallerEnvironment(probe)).toEqual({ account: '123456789012', region: 'eu-west-1' });
  });

  it('returns nothing when no region is configured', async () => {
    const probe = clients(
      () => Promise.reject(new Error('no region')),
      async () => ({ Account: '1' }),
    );
    expect(await probeCallerEnvironment(probe)).toEqual({});
  });

  it('keeps the region when credentials fail', async () => {
    const probe = clients(
      async () => 'us-east-1',
      () => Promise.reject(new Error('CredentialsProviderError')),
    );
    expect(await probeCallerEnvironment(probe)).toEqual({ region: 'us-east-1' });
  });

  it('gives up on STS that never answers instead of hanging synthesis', async () => {
    const probe = clients(
      async () => 'us-east-1',
      () => new Promise(() => {}),
    );
    // A probe that waited for STS would never resolve: the test's own timeout would end it.
    expect(await probeCallerEnvironment(probe, 50)).toEqual({ region: 'us-east-1' });
  });
});

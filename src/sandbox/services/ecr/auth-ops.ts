import type { EcrCall } from './repository-ops.js';

/** GetAuthorizationToken: Basic credentials the sandbox's registry accepts for 12 hours. */
export async function getAuthorizationToken(call: EcrCall): Promise<unknown> {
  const { token, expiresAt } = call.tokens.issue(call.accountId, call.region);
  return {
    authorizationData: [
      {
        authorizationToken: token,
        expiresAt: expiresAt / 1000,
        proxyEndpoint: `https://${call.accountId}.dkr.ecr.${call.region}.amazonaws.com`,
      },
    ],
  };
}

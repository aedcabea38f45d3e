import type { ECRClient } from '@aws-sdk/client-ecr';
import { CdkdError } from '../../errors.js';

export interface Registry {
  /** `host[:port]`, as image references and `login` name it. */
  host: string;
  /** False for a plain-HTTP registry (an AWS-compatible endpoint such as cdkd's sandbox). */
  secure: boolean;
  username: string;
  password: string;
}

/**
 * The registry of the account and region `ecr` is for, with credentials from
 * GetAuthorizationToken. Where ECR's endpoint is overridden (AWS_ENDPOINT_URL_ECR or
 * AWS_ENDPOINT_URL), the registry is that endpoint's host and port: an AWS-compatible
 * endpoint serves the registry protocol where it serves the ECR API, while the
 * `proxyEndpoint` it answers names the real ECR host the template's image URIs hold.
 */
export async function ecrRegistry(ecr: ECRClient, env: NodeJS.ProcessEnv = process.env): Promise<Registry> {
  const { GetAuthorizationTokenCommand } = await import('@aws-sdk/client-ecr');
  const answer = await ecr.send(new GetAuthorizationTokenCommand({}));
  const data = answer.authorizationData?.[0];
  const decoded = data?.authorizationToken
    ? Buffer.from(data.authorizationToken, 'base64').toString('utf8')
    : '';
  const colon = decoded.indexOf(':');
  const endpoint = env.AWS_ENDPOINT_URL_ECR || env.AWS_ENDPOINT_URL || data?.proxyEndpoint;
  if (colon < 0 || !endpoint) {
    throw new CdkdError(
      'CONTAINER_REGISTRY_FAILED',
      'ECR GetAuthorizationToken answered without a usable token or registry endpoint.',
      { hint: 'Check the credentials in use may call ecr:GetAuthorizationToken in this region.' },
    );
  }
  return {
    ...registryAddress(endpoint),
    username: decoded.slice(0, colon),
    password: decoded.slice(colon + 1),
  };
}

/** `https://123.dkr.ecr.us-east-1.amazonaws.com` → its host; `http://127.0.0.1:4566` → host and port, not secure. */
export function registryAddress(endpoint: string): { host: string; secure: boolean } {
  const url = new URL(endpoint.includes('://') ? endpoint : `https://${endpoint}`);
  return { host: url.host, secure: url.protocol !== 'http:' };
}

import type { SandboxContext } from '../../service-module.js';
import type { HttpAuthorizerAnswer } from '../../../http-events/authorizers/http-authorizer.js';
import type { Invoke } from '../../../http-events/types.js';
import { SandboxError } from '../../errors.js';
import type { JwksCache } from './authorizers/jwt.js';
import type { PolicyOutput } from '../../../http-events/authorizers/rest-authorizer.js';
import type { AuthorizerResultCache } from '../../../http-events/authorizers/result-cache.js';
import type { DeploymentSnapshots } from './config/deployments.js';
import type { ApiConfigReader } from './config/reader.js';

/** What answering an API request needs. */
export interface GatewayDeps {
  context: SandboxContext;
  reader: ApiConfigReader;
  snapshots: DeploymentSnapshots;
  /** Synchronous Lambda invocations (integrations and authorizers). */
  invoke: Invoke;
  restAuthorizers: AuthorizerResultCache<PolicyOutput>;
  httpAuthorizers: AuthorizerResultCache<HttpAuthorizerAnswer>;
  jwks: JwksCache;
}

/** Which API a request is for, and where in it. */
export interface ApiAddress {
  apiId: string;
  /** The region a host-style request's domain names (`{id}.execute-api.{region}.amazonaws.com`). */
  regionHint?: string;
  /** Path-style requests name the stage; a host-style request's stage is in its path. */
  stage?: string;
  /** The path below the stage (path style), or the whole path (host style). */
  path: string;
  /** The domain a host-style request used. */
  domainName?: string;
}

/** `arn:aws:execute-api:{region}:{account}:{api}/{stage}/{METHOD}{path}`: what authorizers and IAM policies name. */
export function executeApiArn(
  region: string,
  accountId: string,
  apiId: string,
  stage: string,
  method: string,
  path: string,
): string {
  return `arn:aws:execute-api:${region}:${accountId}:${apiId}/${stage}/${method}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The AWS domain of an API (what the CDK's outputs name). */
export function apiDomain(apiId: string, region: string): string {
  return `${apiId}.execute-api.${region}.amazonaws.com`;
}

/**
 * `invoke` for a Lambda authorizer: a function Lambda cannot run (missing, no Lambda served)
 * answers as a failed invocation, which the authorizer turns into API Gateway's 500.
 */
export function authorizerInvoke(invoke: Invoke): Invoke {
  return async (arn, payload) => {
    try {
      return await invoke(arn, payload);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      return {
        payload: JSON.stringify({ errorType: error.code, errorMessage: error.message }),
        functionError: 'Unhandled',
      };
    }
  };
}

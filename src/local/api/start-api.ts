import type { HttpAuthorizerAnswer } from '../../http-events/authorizers/http-authorizer.js';
import type { PolicyOutput } from '../../http-events/authorizers/rest-authorizer.js';
import { AuthorizerResultCache } from '../../http-events/authorizers/result-cache.js';
import {
  chooseStack,
  startLocalServers,
  type LocalEndpoint,
  type LocalServers,
  type ServedPlan,
  type StartInput,
} from '../serve/local-servers.js';
import { functionsOf, hasApi, localApis } from './api-model.js';
import { serveHttp } from './serve-http.js';
import { serveRest } from './serve-rest.js';

export interface StartApiInput extends StartInput {
  /** The stack by display path or name; default: the only stack with an API. */
  stack?: string;
}

/**
 * `cdkd local start-api`: each REST and HTTP API of the stack on a local port, each request
 * routed, authorized and answered as API Gateway would, its functions run by the local
 * runner (a fresh runtime process per request, so a code edit shows on the next request).
 */
export function startApi(input: StartApiInput): Promise<LocalServers> {
  return startLocalServers(input, apiPlan);
}

function apiPlan(input: StartApiInput): ServedPlan {
  const stack = chooseStack(input.assembly.stacks, input.stack, hasApi, {
    kinds: 'REST or HTTP API',
    command: 'start-api',
  });
  const apis = localApis(stack, input.region);
  return {
    stack,
    functionIds: functionsOf(apis),
    endpoints: (invoke) =>
      apis.map((api): LocalEndpoint => {
        const description = `${api.kind === 'rest' ? 'REST' : 'HTTP'} API ${stack.displayName}/${api.logicalId} (${api.name})`;
        if (api.kind === 'rest') {
          const cache = new AuthorizerResultCache<PolicyOutput>();
          return {
            description,
            answer: (request, port) => serveRest(api, cache, { invoke, region: input.region, port }, request),
          };
        }
        const cache = new AuthorizerResultCache<HttpAuthorizerAnswer>();
        return {
          description,
          answer: (request, port) => serveHttp(api, cache, { invoke, region: input.region, port }, request),
        };
      }),
  };
}

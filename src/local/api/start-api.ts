import type { HttpAuthorizerAnswer } from '../../http-events/authorizers/http-authorizer.js';
import type { PolicyOutput } from '../../http-events/authorizers/rest-authorizer.js';
import { AuthorizerResultCache } from '../../http-events/authorizers/result-cache.js';
import { LocalRunner, type LocalRunnerOptions } from '../function-runner.js';
import {
  checkFunctions,
  chooseStack,
  localInvoker,
  serveEndpoints,
  type LocalEndpoint,
  type LocalServers,
} from '../serve/local-servers.js';
import { functionsOf, hasApi, localApis } from './api-model.js';
import { serveHttp } from './serve-http.js';
import { serveRest } from './serve-rest.js';

export interface StartApiInput extends LocalRunnerOptions {
  /** The stack by display path or name; default: the only stack with an API. */
  stack?: string;
  /** The first API's port; each further API takes the next one (0: any free port each). */
  port: number;
}

/**
 * `cdkd local start-api`: each REST and HTTP API of the stack on a local port, each request
 * routed, authorized and answered as API Gateway would, its functions run by the local
 * runner (a fresh runtime process per request, so a code edit shows on the next request).
 */
export async function startApi(input: StartApiInput): Promise<LocalServers> {
  const stack = chooseStack(input.assembly.stacks, input.stack, hasApi, {
    kinds: 'REST or HTTP API',
    command: 'start-api',
  });
  const apis = localApis(stack, input.region);
  const runner = new LocalRunner(input);
  try {
    await checkFunctions(runner, input.assembly, stack, functionsOf(apis));
    const invoke = localInvoker(runner, input.assembly, stack, input.onWarning);
    const endpoints = apis.map((api): LocalEndpoint => {
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
    });
    const servers = await serveEndpoints(endpoints, input.port, input);
    return {
      endpoints: servers.endpoints,
      close: async () => {
        await servers.close();
        runner.close();
      },
    };
  } catch (error) {
    runner.close();
    throw error;
  }
}

import { SandboxError } from '../../errors.js';
import { lambdaSyncInvoker } from '../../ports/index.js';
import { restJsonCodec } from '../../protocols/rest-json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import type { HttpAuthorizerAnswer } from '../../../http-events/authorizers/http-authorizer.js';
import { JwksCache } from './authorizers/jwt.js';
import type { PolicyOutput } from '../../../http-events/authorizers/rest-authorizer.js';
import { AuthorizerResultCache } from '../../../http-events/authorizers/result-cache.js';
import { DeploymentSnapshots } from './config/deployments.js';
import { ApiConfigReader, HTTP_TYPES, REST_TYPES } from './config/reader.js';
import type { GatewayDeps } from './gateway.js';
import { apiIngress } from './ingress.js';
import { registerRestApiCascade } from './api-parts-cascade.js';

/**
 * API Gateway's front door (`execute-api`, the name IAM-signed API calls are scoped to):
 * REST APIs and HTTP APIs cdkd deployed (kept in Cloud Control's generic store) answer
 * requests on the sandbox's port; a deployment freezes its API's configuration for its
 * stages. The management API (`apigateway`, `apigatewayv2`) is not served.
 */
export const createApiGatewayService: ServiceModuleFactory = async (context) => {
  const reader = new ApiConfigReader(context.resources, context.accountId, context.region);
  const snapshots = await DeploymentSnapshots.load(context.storage);
  for (const [kind, type] of [
    ['rest', REST_TYPES.deployment],
    ['http', HTTP_TYPES.deployment],
  ] as const) {
    context.resources.register(
      type,
      snapshots.handler(kind, () => context.resources.generic(type)!, reader),
    );
  }
  registerRestApiCascade(context.resources);
  const deps: GatewayDeps = {
    context,
    reader,
    snapshots,
    invoke: (arn, payload) => {
      const lambda = lambdaSyncInvoker.of(context);
      if (!lambda) throw new SandboxError('ServiceUnavailable', 'Lambda is not served by this sandbox.', 503);
      return lambda.invoke(arn, payload);
    },
    restAuthorizers: new AuthorizerResultCache<PolicyOutput>(),
    httpAuthorizers: new AuthorizerResultCache<HttpAuthorizerAnswer>(),
    jwks: new JwksCache(),
  };
  const module: ServiceModule = {
    name: 'execute-api',
    codec: restJsonCodec,
    ingress: apiIngress(deps),
    operation: () => 'Invoke',
    isMutating: () => false,
    async handle(request) {
      throw new SandboxError(
        'MissingAuthenticationTokenException',
        `No API answers ${request.method} ${request.path}: call an API at /restapis/{id}/{stage}/_user_request_/… or with the Host {id}.execute-api.localhost.`,
        403,
      );
    },
    inventory: () => ({}),
  };
  return module;
};

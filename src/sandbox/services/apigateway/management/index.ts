import { matchRoute } from '../../../protocols/rest-json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../../service-module.js';
import { restJsonApiModule } from '../../api-module.js';
import { createHttpApiManagement } from '../management-http/index.js';
import { createRestApiManagement } from '../management-rest/index.js';

/**
 * API Gateway's management API (signing name `apigateway`): REST APIs under `/restapis`, HTTP
 * and WebSocket APIs under `/v2/`, one module because both halves share the signing name.
 * The halves name many operations alike (CreateStage, TagResource ...), so a request goes to
 * the half whose routes it matches, never to a merged handler table.
 */
export const createApiGatewayManagementService: ServiceModuleFactory = async (context) => {
  const halves = [await createRestApiManagement(context), await createHttpApiManagement(context)].map(
    (half) => ({ routes: half.routes, module: restJsonApiModule({ name: 'apigateway', ...half }) }),
  );
  const [rest] = halves;
  const halfOf = (request: Parameters<ServiceModule['operation']>[0]): ServiceModule =>
    (halves.find((half) => matchRoute(half.routes, request)) ?? rest)!.module;
  return {
    ...rest!.module,
    operation: (request) => halfOf(request).operation(request),
    handle: (request, operation) => halfOf(request).handle(request, operation),
  };
};

import type { ServiceModuleFactory } from '../../../service-module.js';
import { restJsonApiModule } from '../../api-module.js';
import { createHttpApiManagement } from '../management-http/index.js';
import { createRestApiManagement } from '../management-rest/index.js';

/**
 * API Gateway's management API (signing name `apigateway`): REST APIs under `/restapis`, HTTP
 * and WebSocket APIs under `/v2/`, one module because both halves share the signing name.
 */
export const createApiGatewayManagementService: ServiceModuleFactory = async (context) => {
  const halves = [await createRestApiManagement(context), await createHttpApiManagement(context)];
  return restJsonApiModule({
    name: 'apigateway',
    routes: halves.flatMap((half) => half.routes),
    handlers: Object.assign({}, ...halves.map((half) => half.handlers)),
  });
};

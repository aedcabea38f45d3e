import type { ApiCall } from '../../api-module.js';
import type { ManagementRoutesFactory } from '../management/routes.js';
import { deploymentHandlers } from './deployments.js';
import { methodHandlers } from './methods.js';
import { resourceHandlers } from './resources.js';
import { restApiHandlers } from './rest-apis.js';
import { stageHandlers } from './stages.js';
import { RestApiStore } from './store.js';
import { tagHandlers } from './tags.js';

const API = '/restapis/{restapi_id}';
const METHOD = `${API}/resources/{resource_id}/methods/{http_method}`;

/** API Gateway's routes for REST APIs, with the success status each answers. */
const ROUTES = [
  { method: 'POST', path: '/restapis', operation: 'CreateRestApi', status: 201 },
  { method: 'GET', path: '/restapis', operation: 'GetRestApis' },
  { method: 'GET', path: API, operation: 'GetRestApi' },
  { method: 'PATCH', path: API, operation: 'UpdateRestApi' },
  { method: 'DELETE', path: API, operation: 'DeleteRestApi', status: 202 },
  { method: 'GET', path: `${API}/resources`, operation: 'GetResources' },
  { method: 'POST', path: `${API}/resources/{parent_id}`, operation: 'CreateResource', status: 201 },
  { method: 'GET', path: `${API}/resources/{resource_id}`, operation: 'GetResource' },
  { method: 'DELETE', path: `${API}/resources/{resource_id}`, operation: 'DeleteResource', status: 202 },
  { method: 'PUT', path: METHOD, operation: 'PutMethod', status: 201 },
  { method: 'GET', path: METHOD, operation: 'GetMethod' },
  { method: 'PATCH', path: METHOD, operation: 'UpdateMethod' },
  { method: 'DELETE', path: METHOD, operation: 'DeleteMethod', status: 204 },
  { method: 'PUT', path: `${METHOD}/integration`, operation: 'PutIntegration', status: 201 },
  { method: 'GET', path: `${METHOD}/integration`, operation: 'GetIntegration' },
  { method: 'DELETE', path: `${METHOD}/integration`, operation: 'DeleteIntegration', status: 204 },
  {
    method: 'PUT',
    path: `${METHOD}/integration/responses/{status_code}`,
    operation: 'PutIntegrationResponse',
    status: 201,
  },
  {
    method: 'DELETE',
    path: `${METHOD}/integration/responses/{status_code}`,
    operation: 'DeleteIntegrationResponse',
    status: 204,
  },
  { method: 'PUT', path: `${METHOD}/responses/{status_code}`, operation: 'PutMethodResponse', status: 201 },
  { method: 'GET', path: `${METHOD}/responses/{status_code}`, operation: 'GetMethodResponse' },
  {
    method: 'DELETE',
    path: `${METHOD}/responses/{status_code}`,
    operation: 'DeleteMethodResponse',
    status: 204,
  },
  { method: 'POST', path: `${API}/deployments`, operation: 'CreateDeployment', status: 201 },
  { method: 'GET', path: `${API}/deployments`, operation: 'GetDeployments' },
  { method: 'GET', path: `${API}/deployments/{deployment_id}`, operation: 'GetDeployment' },
  { method: 'PATCH', path: `${API}/deployments/{deployment_id}`, operation: 'UpdateDeployment' },
  {
    method: 'DELETE',
    path: `${API}/deployments/{deployment_id}`,
    operation: 'DeleteDeployment',
    status: 202,
  },
  { method: 'POST', path: `${API}/stages`, operation: 'CreateStage', status: 201 },
  { method: 'GET', path: `${API}/stages`, operation: 'GetStages' },
  { method: 'GET', path: `${API}/stages/{stage_name}`, operation: 'GetStage' },
  { method: 'PATCH', path: `${API}/stages/{stage_name}`, operation: 'UpdateStage' },
  { method: 'DELETE', path: `${API}/stages/{stage_name}`, operation: 'DeleteStage', status: 202 },
  // An ARN holds slashes: the label takes the rest of the path.
  { method: 'GET', path: '/tags/{resource_arn+}', operation: 'GetTags' },
  { method: 'PUT', path: '/tags/{resource_arn+}', operation: 'TagResource', status: 204 },
  { method: 'DELETE', path: '/tags/{resource_arn+}', operation: 'UntagResource', status: 204 },
];

/**
 * REST APIs (v1) under `/restapis`, kept as Cloud Control's models (the store execute-api
 * serves them from), so an API made by these calls answers requests and one Cloud Control
 * made is one these calls read and change.
 */
export const createRestApiManagement: ManagementRoutesFactory = async (context) => {
  const storeOf = (call: ApiCall) => new RestApiStore(context.resources, call);
  return {
    routes: ROUTES,
    handlers: {
      ...restApiHandlers(storeOf),
      ...resourceHandlers(storeOf),
      ...methodHandlers(storeOf),
      ...deploymentHandlers(storeOf),
      ...stageHandlers(storeOf),
      ...tagHandlers(storeOf),
    },
  };
};

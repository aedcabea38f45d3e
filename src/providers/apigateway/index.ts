import type { ProviderRegistry } from '../registry.js';
import { DEPLOYMENT_TYPE, DeploymentProvider } from './deployment.js';
import { METHOD_TYPE, MethodProvider } from './method.js';
import { RESOURCE_TYPE, ResourceProvider } from './resource.js';
import { REST_API_TYPE, RestApiProvider } from './rest-api.js';
import { STAGE_TYPE, StageProvider } from './stage.js';

/** API Gateway REST APIs (v1): RestApi, Resource, Method, Deployment, Stage. */
export function registerApiGateway(registry: ProviderRegistry): void {
  registry.registerSdk(REST_API_TYPE, new RestApiProvider());
  registry.registerSdk(RESOURCE_TYPE, new ResourceProvider());
  registry.registerSdk(METHOD_TYPE, new MethodProvider());
  registry.registerSdk(DEPLOYMENT_TYPE, new DeploymentProvider());
  registry.registerSdk(STAGE_TYPE, new StageProvider());
}

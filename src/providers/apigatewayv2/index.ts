import type { ProviderRegistry } from '../registry.js';
import { API_TYPE, HttpApiProvider } from './api.js';
import { HttpApiPartProvider } from './part-provider.js';
import { INTEGRATION, ROUTE, STAGE } from './parts.js';

/** The API Gateway v2 SDK providers: AWS::ApiGatewayV2::Api, Route, Integration and Stage. */
export function registerApiGatewayV2(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk(API_TYPE, new HttpApiProvider())
    .registerSdk(ROUTE.type, new HttpApiPartProvider(ROUTE))
    .registerSdk(INTEGRATION.type, new HttpApiPartProvider(INTEGRATION))
    .registerSdk(STAGE.type, new HttpApiPartProvider(STAGE));
}

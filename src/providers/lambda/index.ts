import type { ProviderRegistry } from '../registry.js';
import { ALIAS_DESCRIPTION } from './alias.js';
import { LambdaChildProvider } from './child-family.js';
import { EVENT_INVOKE_CONFIG_DESCRIPTION } from './event-invoke-config.js';
import { LambdaEventSourceMappingProvider } from './event-source-mapping.js';
import { LambdaFunctionProvider, type LambdaProviderOptions } from './function.js';
import { LambdaLayerVersionProvider } from './layer-version.js';
import { LambdaPermissionProvider } from './permission.js';
import { URL_DESCRIPTION } from './url.js';
import { LambdaVersionProvider } from './version.js';

/** The Lambda SDK providers, one per type; other Lambda types go through Cloud Control. */
export function registerLambda(
  registry: ProviderRegistry,
  options: LambdaProviderOptions = {},
): ProviderRegistry {
  return registry
    .registerSdk('AWS::Lambda::Function', new LambdaFunctionProvider(options))
    .registerSdk('AWS::Lambda::Permission', new LambdaPermissionProvider())
    .registerSdk('AWS::Lambda::Version', new LambdaVersionProvider(options))
    .registerSdk('AWS::Lambda::Alias', new LambdaChildProvider(ALIAS_DESCRIPTION))
    .registerSdk('AWS::Lambda::EventSourceMapping', new LambdaEventSourceMappingProvider(options))
    .registerSdk('AWS::Lambda::LayerVersion', new LambdaLayerVersionProvider())
    .registerSdk('AWS::Lambda::Url', new LambdaChildProvider(URL_DESCRIPTION))
    .registerSdk('AWS::Lambda::EventInvokeConfig', new LambdaChildProvider(EVENT_INVOKE_CONFIG_DESCRIPTION));
}

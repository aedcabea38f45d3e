import type { StackArtifact } from '../../assembly/index.js';
import type { ResourceModel } from '../../http-events/types.js';
import {
  functionIn,
  getAttOf,
  LOCAL_ARN_PREFIX,
  localFunctionArn,
  logicalIdOfArn,
  refOf,
  resourcesOf,
  type Resources,
} from '../serve/template-refs.js';

const ROOT = '/';

/**
 * An API of the stack as the local server answers it: the template's resources in the
 * shape API Gateway's own models have (what src/http-events reads), each function
 * reference replaced by the local function's stand-in ARN.
 */
export type LocalApi =
  | {
      kind: 'rest';
      logicalId: string;
      name: string;
      stage: string;
      rootResourceId: string;
      resources: ResourceModel[];
      methods: ResourceModel[];
      authorizers: ResourceModel[];
      binaryMediaTypes: string[];
    }
  | {
      kind: 'http';
      logicalId: string;
      name: string;
      model: ResourceModel;
      routes: ResourceModel[];
      integrations: ResourceModel[];
      authorizers: ResourceModel[];
    };

/** Whether the stack declares an API `cdkd local start-api` serves. */
export function hasApi(stack: StackArtifact): boolean {
  return Object.values(resourcesOf(stack.template)).some(
    (resource) =>
      resource.Type === 'AWS::ApiGateway::RestApi' ||
      (resource.Type === 'AWS::ApiGatewayV2::Api' && resource.Properties?.ProtocolType === 'HTTP'),
  );
}

/** The stack's REST APIs (`AWS::ApiGateway::RestApi`) and HTTP APIs (`AWS::ApiGatewayV2::Api`, protocol HTTP). */
export function localApis(stack: StackArtifact, region: string): LocalApi[] {
  const resources = resourcesOf(stack.template);
  const of = (type: string, apiKey: string, api: string) =>
    Object.entries(resources).filter(
      ([, resource]) => resource.Type === type && refOf(resource.Properties?.[apiKey]) === api,
    );
  const apis: LocalApi[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    const properties = resource.Properties ?? {};
    const name = typeof properties.Name === 'string' ? properties.Name : logicalId;
    if (resource.Type === 'AWS::ApiGateway::RestApi') {
      const stage = of('AWS::ApiGateway::Stage', 'RestApiId', logicalId)[0]?.[1].Properties?.StageName;
      apis.push({
        kind: 'rest',
        logicalId,
        name,
        stage: typeof stage === 'string' ? stage : 'prod',
        rootResourceId: ROOT,
        resources: of('AWS::ApiGateway::Resource', 'RestApiId', logicalId).map(([id, r]) => ({
          ResourceId: id,
          ParentId: parentOf(r.Properties?.ParentId, logicalId),
          PathPart: r.Properties?.PathPart,
        })),
        methods: of('AWS::ApiGateway::Method', 'RestApiId', logicalId).map(([id, r]) => ({
          ...r.Properties,
          MethodId: id,
          ResourceId: parentOf(r.Properties?.ResourceId, logicalId),
          AuthorizerId: refOf(r.Properties?.AuthorizerId),
          Integration: withFunctionArn(r.Properties?.Integration, 'Uri', resources, region),
        })),
        authorizers: of('AWS::ApiGateway::Authorizer', 'RestApiId', logicalId).map(([id, r]) =>
          authorizerModel(id, r.Properties ?? {}, resources, region),
        ),
        binaryMediaTypes: Array.isArray(properties.BinaryMediaTypes)
          ? properties.BinaryMediaTypes.map(String)
          : [],
      });
    } else if (resource.Type === 'AWS::ApiGatewayV2::Api' && properties.ProtocolType === 'HTTP') {
      apis.push({
        kind: 'http',
        logicalId,
        name,
        model: { ...properties, ApiId: logicalId },
        routes: of('AWS::ApiGatewayV2::Route', 'ApiId', logicalId).map(([, r]) => ({
          ...r.Properties,
          AuthorizerId: refOf(r.Properties?.AuthorizerId),
          Target: `integrations/${integrationOf(r.Properties?.Target) ?? ''}`,
        })),
        integrations: of('AWS::ApiGatewayV2::Integration', 'ApiId', logicalId).map(([id, r]) => ({
          ...withFunctionArn(r.Properties, 'IntegrationUri', resources, region),
          IntegrationId: id,
        })),
        authorizers: of('AWS::ApiGatewayV2::Authorizer', 'ApiId', logicalId).map(([id, r]) =>
          authorizerModel(id, r.Properties ?? {}, resources, region),
        ),
      });
    }
  }
  return apis;
}

/** The logical IDs of every function the APIs' integrations and authorizers run. */
export function functionsOf(apis: readonly LocalApi[]): string[] {
  const uris = apis.flatMap((api) =>
    api.kind === 'rest'
      ? [
          ...api.methods.map((method) => (method.Integration as Record<string, unknown>).Uri),
          ...api.authorizers.map((authorizer) => authorizer.AuthorizerUri),
        ]
      : [
          ...api.integrations.map((integration) => integration.IntegrationUri),
          ...api.authorizers.map((authorizer) => authorizer.AuthorizerUri),
        ],
  );
  const ids = uris
    .filter((uri): uri is string => typeof uri === 'string' && uri.startsWith(LOCAL_ARN_PREFIX))
    .map(logicalIdOfArn);
  return [...new Set(ids)];
}

/** A resource's parent: the API's root (`Fn::GetAtt [Api, RootResourceId]`) or another resource. */
function parentOf(value: unknown, api: string): string {
  const att = getAttOf(value);
  if (att && att[0] === api && att[1] === 'RootResourceId') return ROOT;
  return refOf(value) ?? '';
}

/** A route's target `integrations/{id}`, as CDK joins it with a Ref to the integration. */
function integrationOf(target: unknown): string | undefined {
  if (typeof target === 'string') return /^integrations\/(.+)$/.exec(target)?.[1];
  const join =
    typeof target === 'object' && target !== null
      ? (target as Record<string, unknown>)['Fn::Join']
      : undefined;
  if (!Array.isArray(join) || !Array.isArray(join[1])) return undefined;
  return (join[1] as unknown[]).map(refOf).find((id) => id !== undefined);
}

function authorizerModel(
  id: string,
  properties: Record<string, unknown>,
  resources: Resources,
  region: string,
) {
  return { ...withFunctionArn(properties, 'AuthorizerUri', resources, region), AuthorizerId: id };
}

/** The properties with the URI naming a local function as that function's stand-in ARN. */
function withFunctionArn(
  value: unknown,
  key: string,
  resources: Resources,
  region: string,
): Record<string, unknown> {
  const properties = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const fn = functionIn(properties[key], resources);
  return fn ? { ...properties, [key]: localFunctionArn(region, fn) } : properties;
}

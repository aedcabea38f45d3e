import type { ResourceHandler, ResourceHandlers } from '../../resources.js';

/** A REST API's parts, deepest first: deleting the API deletes them, as API Gateway does. */
const REST_PARTS = [
  'AWS::ApiGateway::Stage',
  'AWS::ApiGateway::Deployment',
  'AWS::ApiGateway::Method',
  'AWS::ApiGateway::Resource',
  'AWS::ApiGateway::Authorizer',
  'AWS::ApiGateway::Model',
  'AWS::ApiGateway::RequestValidator',
  'AWS::ApiGateway::GatewayResponse',
  'AWS::ApiGateway::DocumentationPart',
];

/**
 * `AWS::ApiGateway::RestApi` as Cloud Control's generic store keeps it, but deleting one deletes
 * its parts whichever route deletes it (API Gateway's DeleteRestApi or Cloud Control's
 * DeleteResource): a retained deployment of a deleted API must not outlive it.
 */
export function registerRestApiCascade(resources: ResourceHandlers): void {
  const type = 'AWS::ApiGateway::RestApi';
  // Looked up per call: Cloud Control's module sets the generic store up after this one.
  const stored = (): ResourceHandler => resources.generic(type)!;
  resources.register(type, {
    create: (desired, region, accountId) => stored().create(desired, region, accountId),
    read: (identifier, region, accountId) => stored().read(identifier, region, accountId),
    update: (identifier, desired, region, accountId) =>
      stored().update(identifier, desired, region, accountId),
    list: (region, accountId) => stored().list(region, accountId),
    createdAt: (identifier, region) => stored().createdAt?.(identifier, region),
    get writeOnlyProperties() {
      return stored().writeOnlyProperties;
    },
    delete: async (identifier, region, accountId) => {
      const restApiId = stored().read(identifier, region, accountId)?.RestApiId;
      if (restApiId !== undefined) {
        for (const part of REST_PARTS) {
          const handler = resources.resolve(part);
          for (const entry of handler?.list(region, accountId) ?? []) {
            if (entry.model.RestApiId === restApiId)
              await handler!.delete(entry.identifier, region, accountId);
          }
        }
      }
      await stored().delete(identifier, region, accountId);
    },
  });
}

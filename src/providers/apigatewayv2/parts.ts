import {
  CreateIntegrationCommand,
  CreateRouteCommand,
  CreateStageCommand,
  DeleteIntegrationCommand,
  DeleteRouteCommand,
  DeleteStageCommand,
  GetIntegrationCommand,
  GetRouteCommand,
  GetRoutesCommand,
  GetStageCommand,
  GetStagesCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateIntegrationCommand,
  UpdateRouteCommand,
  UpdateStageCommand,
  type CreateIntegrationCommandInput,
  type CreateRouteCommandInput,
  type CreateStageCommandInput,
} from '@aws-sdk/client-apigatewayv2';
import { partitionForRegion } from '../../template/pseudo-parameters.js';
import type { JsonObject } from '../provider.js';
import { tagDiff } from '../tags.js';
import { allPages } from './common.js';
import type { PartSpec } from './part-provider.js';

export const ROUTE_TYPE = 'AWS::ApiGatewayV2::Route';
export const INTEGRATION_TYPE = 'AWS::ApiGatewayV2::Integration';
export const STAGE_TYPE = 'AWS::ApiGatewayV2::Stage';

/** A call's answer without its response metadata. */
const plain = <T>(output: T): JsonObject => {
  const rest = { ...(output as JsonObject) };
  delete rest.$metadata;
  return rest;
};

/** What the CDK's HttpRoute and WebSocketRoute emit; request models and parameters go to Cloud Control. */
export const ROUTE: PartSpec = {
  type: ROUTE_TYPE,
  covered: [
    'ApiId',
    'RouteKey',
    'Target',
    'AuthorizationType',
    'AuthorizerId',
    'AuthorizationScopes',
    'ApiKeyRequired',
    'OperationName',
    'RouteResponseSelectionExpression',
  ],
  idProperty: 'RouteId',
  uniqueKey: 'RouteKey',
  booleans: ['ApiKeyRequired'],
  defaults: { AuthorizationType: 'NONE' },
  create: async (client, input, abortSignal) =>
    plain(
      await client.send(new CreateRouteCommand(input as unknown as CreateRouteCommandInput), { abortSignal }),
    ),
  update: async (client, ApiId, RouteId, changes, abortSignal) =>
    plain(await client.send(new UpdateRouteCommand({ ...changes, ApiId, RouteId }), { abortSignal })),
  delete: (client, ApiId, RouteId, abortSignal) =>
    client.send(new DeleteRouteCommand({ ApiId, RouteId }), { abortSignal }),
  get: async (client, ApiId, RouteId, abortSignal) =>
    plain(await client.send(new GetRouteCommand({ ApiId, RouteId }), { abortSignal })),
  list: async (client, ApiId, abortSignal) =>
    (
      await allPages((NextToken) => client.send(new GetRoutesCommand({ ApiId, NextToken }), { abortSignal }))
    ).map(plain),
};

/**
 * What the CDK's HTTP integrations emit (Lambda, HTTP URL, private via VPC link, AWS service
 * subtypes); WebSocket's request templates and content handling go to Cloud Control.
 */
export const INTEGRATION: PartSpec = {
  type: INTEGRATION_TYPE,
  covered: [
    'ApiId',
    'IntegrationType',
    'IntegrationUri',
    'IntegrationMethod',
    'IntegrationSubtype',
    'PayloadFormatVersion',
    'ConnectionType',
    'ConnectionId',
    'CredentialsArn',
    'RequestParameters',
    'TimeoutInMillis',
    'Description',
  ],
  idProperty: 'IntegrationId',
  numbers: ['TimeoutInMillis'],
  defaults: { ConnectionType: 'INTERNET', TimeoutInMillis: 30000 },
  create: async (client, input, abortSignal) =>
    plain(
      await client.send(new CreateIntegrationCommand(input as unknown as CreateIntegrationCommandInput), {
        abortSignal,
      }),
    ),
  update: async (client, ApiId, IntegrationId, changes, abortSignal) =>
    plain(
      await client.send(new UpdateIntegrationCommand({ ...changes, ApiId, IntegrationId }), { abortSignal }),
    ),
  delete: (client, ApiId, IntegrationId, abortSignal) =>
    client.send(new DeleteIntegrationCommand({ ApiId, IntegrationId }), { abortSignal }),
  get: async (client, ApiId, IntegrationId, abortSignal) =>
    plain(await client.send(new GetIntegrationCommand({ ApiId, IntegrationId }), { abortSignal })),
  list: async () => [],
};

/** What the CDK's HttpStage and WebSocketStage emit. */
export const STAGE: PartSpec = {
  type: STAGE_TYPE,
  covered: [
    'ApiId',
    'StageName',
    'AutoDeploy',
    'DeploymentId',
    'Description',
    'StageVariables',
    'DefaultRouteSettings',
    'RouteSettings',
    'AccessLogSettings',
    'ClientCertificateId',
    'Tags',
  ],
  idProperty: 'StageName',
  uniqueKey: 'StageName',
  booleans: ['AutoDeploy'],
  notUpdated: ['Tags'],
  create: async (client, input, abortSignal) =>
    plain(
      await client.send(new CreateStageCommand(input as unknown as CreateStageCommandInput), { abortSignal }),
    ),
  update: async (client, ApiId, StageName, changes, abortSignal) =>
    plain(await client.send(new UpdateStageCommand({ ...changes, ApiId, StageName }), { abortSignal })),
  delete: (client, ApiId, StageName, abortSignal) =>
    client.send(new DeleteStageCommand({ ApiId, StageName }), { abortSignal }),
  get: async (client, ApiId, StageName, abortSignal) =>
    plain(await client.send(new GetStageCommand({ ApiId, StageName }), { abortSignal })),
  list: async (client, ApiId, abortSignal) =>
    (
      await allPages((NextToken) => client.send(new GetStagesCommand({ ApiId, NextToken }), { abortSignal }))
    ).map(plain),
  async afterUpdate(client, request, context) {
    const tags = (properties: JsonObject) =>
      Object.fromEntries(
        Object.entries((properties.Tags ?? {}) as Record<string, unknown>).map(([key, value]) => [
          key,
          String(value),
        ]),
      );
    const { set, remove } = tagDiff(tags(request.previousProperties), tags(request.properties));
    const ResourceArn = `arn:${partitionForRegion(context.region)}:apigateway:${context.region}::/apis/${String(request.properties.ApiId)}/stages/${request.physicalId}`;
    const signal = { abortSignal: context.signal };
    if (remove.length > 0)
      await client.send(new UntagResourceCommand({ ResourceArn, TagKeys: remove }), signal);
    if (Object.keys(set).length > 0)
      await client.send(new TagResourceCommand({ ResourceArn, Tags: set }), signal);
  },
};

import {
  CreateAliasCommand,
  DeleteAliasCommand,
  GetAliasCommand,
  UpdateAliasCommand,
  type AliasConfiguration,
} from '@aws-sdk/client-lambda';
import type { DeleteRequest, JsonObject } from '../provider.js';
import type { LambdaChildDescription } from './child-family.js';
import { asObject, string } from './common.js';

const TYPE = 'AWS::Lambda::Alias';

/**
 * AWS::Lambda::Alias through CreateAlias / UpdateAlias. FunctionName and Name are
 * create-only; the version, description and weighted routing update in place.
 * Physical id and Ref: the alias ARN.
 */
export const ALIAS_DESCRIPTION: LambdaChildDescription<AliasConfiguration> = {
  type: TYPE,
  covered: ['FunctionName', 'Name', 'FunctionVersion', 'Description', 'RoutingConfig'],
  createAttempts: 'single',
  create: (client, properties, options) =>
    client.send(
      new CreateAliasCommand({ FunctionName: string(properties.FunctionName), ...aliasInput(properties) }),
      options,
    ),
  update: (client, properties, options) =>
    client.send(
      new UpdateAliasCommand({
        FunctionName: string(properties.FunctionName),
        ...aliasInput(properties),
        // An absent RoutingConfig must clear weights set before.
        RoutingConfig: aliasInput(properties).RoutingConfig ?? { AdditionalVersionWeights: {} },
        Description: string(properties.Description) ?? '',
      }),
      options,
    ),
  delete: (client, request, options) =>
    client.send(
      new DeleteAliasCommand({
        FunctionName: string(request.properties.FunctionName),
        Name: aliasName(request),
      }),
      options,
    ),
  get: (client, request, options) =>
    client.send(
      new GetAliasCommand({
        FunctionName: string(request.properties.FunctionName),
        Name: aliasName(request),
      }),
      options,
    ),
  physicalId: (alias) => alias.AliasArn!,
  observed: observedOf,
  readKeeps: (properties) => ({ FunctionName: properties.FunctionName }),
  identity: {
    of: (alias) => ({ AliasArn: alias.AliasArn!, RevisionId: alias.RevisionId ?? '' }),
    onRead: false,
  },
};

/** The alias name is the ARN's last part. */
function aliasName(request: DeleteRequest): string {
  return string(request.properties.Name) ?? request.physicalId.slice(request.physicalId.lastIndexOf(':') + 1);
}

/** CloudFormation's `[{FunctionVersion, FunctionWeight}]` as the API's weight map. */
function aliasInput(properties: JsonObject) {
  const weights = asObject(properties.RoutingConfig)?.AdditionalVersionWeights;
  const routing = Array.isArray(weights)
    ? {
        AdditionalVersionWeights: Object.fromEntries(
          weights.map((entry: { FunctionVersion?: unknown; FunctionWeight?: unknown }) => [
            String(entry.FunctionVersion),
            Number(entry.FunctionWeight),
          ]),
        ),
      }
    : undefined;
  return {
    Name: string(properties.Name),
    FunctionVersion: string(properties.FunctionVersion),
    Description: string(properties.Description),
    ...(routing ? { RoutingConfig: routing } : {}),
  };
}

/** The alias as CreateAlias, UpdateAlias and GetAlias all answer it. */
function observedOf(alias: AliasConfiguration): JsonObject {
  const weights = alias.RoutingConfig?.AdditionalVersionWeights ?? {};
  return {
    Name: alias.Name,
    FunctionVersion: alias.FunctionVersion,
    Description: alias.Description,
    ...(Object.keys(weights).length > 0
      ? {
          RoutingConfig: {
            AdditionalVersionWeights: Object.entries(weights).map(([FunctionVersion, FunctionWeight]) => ({
              FunctionVersion,
              FunctionWeight,
            })),
          },
        }
      : {}),
  };
}

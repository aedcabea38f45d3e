import {
  CreateAliasCommand,
  DeleteAliasCommand,
  GetAliasCommand,
  UpdateAliasCommand,
  type AliasConfiguration,
} from '@aws-sdk/client-lambda';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { asObject, isNotFound, lambdaClient, string, sendDelete } from './common.js';
import { attributesFor } from './ref-attributes.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

const TYPE = 'AWS::Lambda::Alias';
const COVERED = new Set(['FunctionName', 'Name', 'FunctionVersion', 'Description', 'RoutingConfig']);

/**
 * AWS::Lambda::Alias through CreateAlias / UpdateAlias. FunctionName and Name are
 * create-only; the version, description and weighted routing update in place.
 * Physical id and Ref: the alias ARN.
 */
export class LambdaAliasProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await lambdaClient(context, SINGLE_ATTEMPT);
    const created = await client.send(
      new CreateAliasCommand({
        FunctionName: string(request.properties.FunctionName),
        ...aliasInput(request.properties),
      }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: created.AliasArn!,
      attributes: attributesFor(TYPE, created),
      creationIdentity: { AliasArn: created.AliasArn!, RevisionId: created.RevisionId ?? '' },
      observed: observedOf(created),
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await lambdaClient(context);
    const updated = await client.send(
      new UpdateAliasCommand({
        FunctionName: string(request.properties.FunctionName),
        ...aliasInput(request.properties),
        // An absent RoutingConfig must clear weights set before.
        RoutingConfig: aliasInput(request.properties).RoutingConfig ?? { AdditionalVersionWeights: {} },
        Description: string(request.properties.Description) ?? '',
      }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: request.physicalId,
      attributes: attributesFor(TYPE, updated),
      observed: observedOf(updated),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await sendDelete(context, (client, options) =>
      client.send(
        new DeleteAliasCommand({
          FunctionName: string(request.properties.FunctionName),
          Name: aliasName(request),
        }),
        options,
      ),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    let alias: AliasConfiguration;
    try {
      alias = await client.send(
        new GetAliasCommand({
          FunctionName: string(request.properties.FunctionName),
          Name: aliasName(request),
        }),
        { abortSignal: context.signal },
      );
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    return {
      properties: { FunctionName: request.properties.FunctionName, ...observedOf(alias) },
      attributes: attributesFor(TYPE, alias),
    };
  }
}

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

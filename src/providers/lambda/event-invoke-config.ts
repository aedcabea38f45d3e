import {
  DeleteFunctionEventInvokeConfigCommand,
  GetFunctionEventInvokeConfigCommand,
  PutFunctionEventInvokeConfigCommand,
  type DestinationConfig,
  type FunctionEventInvokeConfig,
} from '@aws-sdk/client-lambda';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  NameLookup,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { asObject, integer, isNotFound, lambdaClient, string, sendDelete } from './common.js';
import { attributesFor } from './ref-attributes.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

const TYPE = 'AWS::Lambda::EventInvokeConfig';
const COVERED = new Set([
  'FunctionName',
  'Qualifier',
  'MaximumEventAgeInSeconds',
  'MaximumRetryAttempts',
  'DestinationConfig',
]);

/**
 * AWS::Lambda::EventInvokeConfig: a function's asynchronous-invocation settings for one
 * qualifier. FunctionName and Qualifier are create-only. Physical id and Ref, as
 * CloudFormation's: `FunctionName|Qualifier`, the schema's primary identifier.
 *
 * PutFunctionEventInvokeConfig overwrites whatever configuration the qualifier holds, so a
 * create looks it up first (`nameHolder`) and a taken one is refused rather than taken over.
 * An update puts the whole configuration again: a setting the template drops goes back to
 * Lambda's default, as it does under CloudFormation.
 */
export class LambdaEventInvokeConfigProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup> {
    const name = physicalIdOf(request.properties);
    const live = await this.read({ ...request, physicalId: name }, context);
    return { name, ...(live ? { holder: name } : {}) };
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const put = await this.put(request.properties, context);
    return {
      physicalId: physicalIdOf(request.properties),
      attributes: attributesFor(TYPE, put),
      observed: observedOf(put),
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const put = await this.put(request.properties, context);
    return {
      physicalId: request.physicalId,
      attributes: attributesFor(TYPE, put),
      observed: observedOf(put),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await sendDelete(context, (client, options) =>
      client.send(new DeleteFunctionEventInvokeConfigCommand(target(request.properties)), options),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    try {
      const config = await client.send(new GetFunctionEventInvokeConfigCommand(target(request.properties)), {
        abortSignal: context.signal,
      });
      return {
        properties: { ...target(request.properties), ...observedOf(config) },
        attributes: attributesFor(TYPE, config),
      };
    } catch (error) {
      // Neither the configuration nor, possibly, its function exists.
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private async put(properties: JsonObject, context: ProviderContext): Promise<FunctionEventInvokeConfig> {
    const client = await lambdaClient(context);
    const destinations = asObject(properties.DestinationConfig);
    return client.send(
      new PutFunctionEventInvokeConfigCommand({
        ...target(properties),
        MaximumRetryAttempts: integer(properties.MaximumRetryAttempts, 'MaximumRetryAttempts'),
        MaximumEventAgeInSeconds: integer(properties.MaximumEventAgeInSeconds, 'MaximumEventAgeInSeconds'),
        ...(destinations ? { DestinationConfig: destinations as DestinationConfig } : {}),
      }),
      { abortSignal: context.signal },
    );
  }
}

function target(properties: JsonObject): { FunctionName: string; Qualifier: string } {
  return {
    FunctionName: string(properties.FunctionName) ?? '',
    Qualifier: string(properties.Qualifier) ?? '',
  };
}

function physicalIdOf(properties: JsonObject): string {
  const { FunctionName, Qualifier } = target(properties);
  return `${FunctionName}|${Qualifier}`;
}

/** The settings as Lambda answers them, in template terms; an empty DestinationConfig is none. */
function observedOf(config: FunctionEventInvokeConfig): JsonObject {
  const destinations = config.DestinationConfig ?? {};
  return {
    ...(config.MaximumRetryAttempts !== undefined && { MaximumRetryAttempts: config.MaximumRetryAttempts }),
    ...(config.MaximumEventAgeInSeconds !== undefined && {
      MaximumEventAgeInSeconds: config.MaximumEventAgeInSeconds,
    }),
    ...(Object.keys(destinations).length > 0 && { DestinationConfig: destinations }),
  };
}

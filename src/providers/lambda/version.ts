import {
  DeleteFunctionCommand,
  GetFunctionConfigurationCommand,
  PublishVersionCommand,
  type FunctionConfiguration,
} from '@aws-sdk/client-lambda';
import { systemClock, type Clock } from '../clock.js';
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
import { isNotFound, lambdaClient, string, sendDelete } from './common.js';
import { attributesFor } from './ref-attributes.js';
import { waitForFunction } from './waits.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

const TYPE = 'AWS::Lambda::Version';
const COVERED = new Set(['FunctionName', 'Description', 'CodeSha256']);

/**
 * AWS::Lambda::Version through PublishVersion; a published version is immutable, so every
 * property is create-only. Physical id and Ref: the version ARN; `Version`: its number.
 */
export class LambdaVersionProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    super();
    this.clock = options.clock ?? systemClock;
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await lambdaClient(context);
    const functionName = string(request.properties.FunctionName)!;
    // Lambda refuses PublishVersion while the function is still settling from its last change.
    await waitForFunction(client, functionName, 'updated', this.clock, context.signal);
    const published = await client.send(
      new PublishVersionCommand({
        FunctionName: functionName,
        Description: string(request.properties.Description),
        CodeSha256: string(request.properties.CodeSha256),
      }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: published.FunctionArn!,
      attributes: attributesFor(TYPE, published),
      creationIdentity: { Arn: published.FunctionArn!, CodeSha256: published.CodeSha256 ?? '' },
      observed: observedOf(published),
    };
  }

  /** Nothing is updatable in place; reached only for no-op changes. */
  async update(request: UpdateRequest): Promise<UpdateResult> {
    // No call is made: a version never changes, so there is no answer to observe.
    return { physicalId: request.physicalId, attributes: versionAttributes(request.physicalId) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await sendDelete(context, (client, options) =>
      client.send(new DeleteFunctionCommand({ FunctionName: request.physicalId }), options),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    try {
      const config = await client.send(
        new GetFunctionConfigurationCommand({ FunctionName: request.physicalId }),
        {
          abortSignal: context.signal,
        },
      );
      return {
        properties: { FunctionName: request.properties.FunctionName, ...observedOf(config) },
        attributes: attributesFor(TYPE, config),
        creationIdentity: { Arn: config.FunctionArn!, CodeSha256: config.CodeSha256 ?? '' },
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

/** The version ARN ends in its number: `arn:...:function:name:7`. */
function versionAttributes(arn: string): JsonObject {
  return attributesFor(TYPE, { FunctionArn: arn, Version: arn.slice(arn.lastIndexOf(':') + 1) });
}

/** The version as PublishVersion (and GetFunctionConfiguration) answers it. */
function observedOf(config: FunctionConfiguration): JsonObject {
  return { Description: config.Description, CodeSha256: config.CodeSha256 };
}

import {
  CreateFunctionUrlConfigCommand,
  DeleteFunctionUrlConfigCommand,
  GetFunctionUrlConfigCommand,
  UpdateFunctionUrlConfigCommand,
  type FunctionUrlAuthType,
  type InvokeMode,
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

const TYPE = 'AWS::Lambda::Url';
const COVERED = new Set(['TargetFunctionArn', 'Qualifier', 'AuthType', 'Cors', 'InvokeMode']);

/** As in the registry schema: the read answers the function's ARN, not the target as given. */
const WRITE_ONLY: readonly string[] = ['TargetFunctionArn', 'Qualifier'];

/**
 * AWS::Lambda::Url through the function URL config API. TargetFunctionArn and Qualifier
 * are create-only. Physical id and Ref: the function ARN (qualified when Qualifier is set).
 */
export class LambdaUrlProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED, writeOnly: WRITE_ONLY };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await lambdaClient(context, SINGLE_ATTEMPT);
    const created = await client.send(
      new CreateFunctionUrlConfigCommand({ ...target(request.properties), ...settings(request.properties) }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: created.FunctionArn!,
      attributes: attributesFor(TYPE, created),
      creationIdentity: { FunctionArn: created.FunctionArn!, CreationTime: created.CreationTime ?? '' },
      observed: observedOf(created),
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await lambdaClient(context);
    const updated = await client.send(
      new UpdateFunctionUrlConfigCommand({
        ...target(request.properties),
        ...settings(request.properties),
        // An absent Cors must clear what was set before.
        Cors: settings(request.properties).Cors ?? {},
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
      client.send(new DeleteFunctionUrlConfigCommand(target(request.properties)), options),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    try {
      const url = await client.send(new GetFunctionUrlConfigCommand(target(request.properties)), {
        abortSignal: context.signal,
      });
      return {
        properties: { ...target(request.properties), ...observedOf(url) },
        attributes: attributesFor(TYPE, url),
        creationIdentity: { FunctionArn: url.FunctionArn!, CreationTime: url.CreationTime ?? '' },
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

function target(p: JsonObject): { FunctionName: string; Qualifier?: string } {
  const qualifier = string(p.Qualifier);
  return { FunctionName: string(p.TargetFunctionArn) ?? '', ...(qualifier ? { Qualifier: qualifier } : {}) };
}

function settings(p: JsonObject) {
  const cors = asObject(p.Cors);
  return {
    AuthType: string(p.AuthType) as FunctionUrlAuthType,
    ...(p.InvokeMode !== undefined ? { InvokeMode: string(p.InvokeMode) as InvokeMode } : {}),
    ...(cors ? { Cors: cors } : {}),
  };
}

/** The URL's settings as the create, update and get calls all answer them. */
function observedOf(url: { AuthType?: string; InvokeMode?: string; Cors?: object }): JsonObject {
  return { AuthType: url.AuthType, InvokeMode: url.InvokeMode, ...(url.Cors ? { Cors: url.Cors } : {}) };
}

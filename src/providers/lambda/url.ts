import {
  CreateFunctionUrlConfigCommand,
  DeleteFunctionUrlConfigCommand,
  GetFunctionUrlConfigCommand,
  UpdateFunctionUrlConfigCommand,
  type FunctionUrlAuthType,
  type InvokeMode,
} from '@aws-sdk/client-lambda';
import type { JsonObject } from '../provider.js';
import type { LambdaChildDescription } from './child-family.js';
import { asObject, string } from './common.js';

type UrlConfig = {
  FunctionArn?: string;
  CreationTime?: string;
  AuthType?: string;
  InvokeMode?: string;
  Cors?: object;
};

/**
 * AWS::Lambda::Url through the function URL config API. TargetFunctionArn and Qualifier
 * are create-only. Physical id and Ref: the function ARN (qualified when Qualifier is set).
 */
export const URL_DESCRIPTION: LambdaChildDescription<UrlConfig> = {
  type: 'AWS::Lambda::Url',
  covered: ['TargetFunctionArn', 'Qualifier', 'AuthType', 'Cors', 'InvokeMode'],
  // As in the registry schema: the read answers the function's ARN, not the target as given.
  writeOnly: ['TargetFunctionArn', 'Qualifier'],
  createAttempts: 'single',
  create: (client, properties, options) =>
    client.send(
      new CreateFunctionUrlConfigCommand({ ...target(properties), ...settings(properties) }),
      options,
    ),
  update: (client, properties, options) =>
    client.send(
      new UpdateFunctionUrlConfigCommand({
        ...target(properties),
        ...settings(properties),
        // An absent Cors must clear what was set before.
        Cors: settings(properties).Cors ?? {},
      }),
      options,
    ),
  delete: (client, request, options) =>
    client.send(new DeleteFunctionUrlConfigCommand(target(request.properties)), options),
  get: (client, request, options) =>
    client.send(new GetFunctionUrlConfigCommand(target(request.properties)), options),
  physicalId: (url) => url.FunctionArn!,
  observed: observedOf,
  readKeeps: target,
  identity: {
    of: (url) => ({ FunctionArn: url.FunctionArn!, CreationTime: url.CreationTime ?? '' }),
    onRead: true,
  },
};

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
function observedOf(url: UrlConfig): JsonObject {
  return { AuthType: url.AuthType, InvokeMode: url.InvokeMode, ...(url.Cors ? { Cors: url.Cors } : {}) };
}

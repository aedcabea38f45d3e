import {
  DeleteFunctionEventInvokeConfigCommand,
  GetFunctionEventInvokeConfigCommand,
  PutFunctionEventInvokeConfigCommand,
  type DestinationConfig,
  type FunctionEventInvokeConfig,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import type { JsonObject } from '../provider.js';
import type { LambdaChildDescription } from './child-family.js';
import { asObject, integer, string } from './common.js';

/**
 * AWS::Lambda::EventInvokeConfig: a function's asynchronous-invocation settings for one
 * qualifier. FunctionName and Qualifier are create-only. Physical id and Ref, as
 * CloudFormation's: `FunctionName|Qualifier`, the schema's primary identifier.
 *
 * PutFunctionEventInvokeConfig overwrites whatever configuration the qualifier holds, so a
 * create looks it up first (`takenId`) and a taken one is refused rather than taken over.
 * An update puts the whole configuration again: a setting the template drops goes back to
 * Lambda's default, as it does under CloudFormation.
 */
export const EVENT_INVOKE_CONFIG_DESCRIPTION: LambdaChildDescription<FunctionEventInvokeConfig> = {
  type: 'AWS::Lambda::EventInvokeConfig',
  covered: [
    'FunctionName',
    'Qualifier',
    'MaximumEventAgeInSeconds',
    'MaximumRetryAttempts',
    'DestinationConfig',
  ],
  createAttempts: 'retried',
  create: put,
  update: put,
  delete: (client, request, options) =>
    client.send(new DeleteFunctionEventInvokeConfigCommand(target(request.properties)), options),
  // Neither the configuration nor, possibly, its function exists: a not-found either way.
  get: (client, request, options) =>
    client.send(new GetFunctionEventInvokeConfigCommand(target(request.properties)), options),
  physicalId: (_config, properties) => physicalIdOf(properties),
  observed: observedOf,
  readKeeps: target,
  takenId: physicalIdOf,
};

function put(
  client: LambdaClient,
  properties: JsonObject,
  options: { abortSignal?: AbortSignal },
): Promise<FunctionEventInvokeConfig> {
  const destinations = asObject(properties.DestinationConfig);
  return client.send(
    new PutFunctionEventInvokeConfigCommand({
      ...target(properties),
      MaximumRetryAttempts: integer(properties.MaximumRetryAttempts, 'MaximumRetryAttempts'),
      MaximumEventAgeInSeconds: integer(properties.MaximumEventAgeInSeconds, 'MaximumEventAgeInSeconds'),
      ...(destinations ? { DestinationConfig: destinations as DestinationConfig } : {}),
    }),
    options,
  );
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

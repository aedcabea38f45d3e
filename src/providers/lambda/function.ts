import {
  CreateFunctionCommand,
  DeleteFunctionCommand,
  DeleteFunctionConcurrencyCommand,
  GetFunctionCommand,
  PutFunctionConcurrencyCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
  type Architecture,
  type FunctionConfiguration,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { systemClock, type Clock } from '../clock.js';
import { tokenPhysicalName, TOKEN_TAG } from '../physical-names.js';
import type {
  CreateResult,
  CreationIdentity,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
} from '../provider.js';
import { awsErrorCode } from '../../aws/error-class.js';
import {
  asObject,
  integer,
  isNotFound,
  lambdaClient,
  string,
  stringList,
  tagMap,
  sendDelete,
} from './common.js';
import {
  codeInput,
  configurationInput,
  createInput,
  FUNCTION_PROPERTIES,
  unsendableFunctionProperties,
  updateCalls,
} from './function-properties.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { observedSettings } from './function-settings.js';
import { resourceMade } from '../resource-made.js';
import { attributesFor } from './ref-attributes.js';
import { waitForFunction } from './waits.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { retryClassOf } from '../retry-class.js';
import { PropagationGate } from '../retry-propagation.js';

const TYPE = 'AWS::Lambda::Function';
// The token tag marks which logical create made a function, so a replayed create can adopt it.
const managedTag = (key: string): boolean => key.startsWith('aws:') || key === TOKEN_TAG;

/** Lambda's function-name limit and character set, for names CloudFormation would generate. */
export const FUNCTION_NAME_RULES = { maxLength: 64, extraCharacters: '-_' };

export interface LambdaProviderOptions {
  clock?: Clock;
}

/** GetFunction answers a CodeSha256 and a presigned location, never the Code sent. */
const WRITE_ONLY: readonly string[] = ['Code'];

/**
 * AWS::Lambda::Function through CreateFunction / UpdateFunctionCode /
 * UpdateFunctionConfiguration. A create does not wait for State Active (the deploy does, at
 * its end, through `untilUsable`); an update waits for LastUpdateStatus Successful before and after
 * each change, since Lambda refuses the next change until then. Physical id and Ref: the
 * function name. A create whose concurrency call fails after the function exists reports it
 * made (ResourceMadeError, with the creation identity CreateFunction answered).
 */
export class LambdaFunctionProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: TYPE,
    covered: FUNCTION_PROPERTIES,
    alsoUncovered: unsendableFunctionProperties,
    writeOnly: WRITE_ONLY,
  };
  private readonly clock: Clock;
  /** Functions on one new execution role wait on one probe, not one call each (spec 003). */
  private readonly roles = new PropagationGate();

  constructor(options: LambdaProviderOptions = {}) {
    super();
    this.clock = options.clock ?? systemClock;
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await lambdaClient(context);
    const name = functionName(request, context);
    const token = request.idempotencyToken;
    const tags = { ...tagMap(request.properties.Tags), ...(token ? { [TOKEN_TAG]: token } : {}) };
    const send = async () =>
      (await lambdaClient(context, SINGLE_ATTEMPT)).send(
        new CreateFunctionCommand(createInput(name, request.properties, tags)),
        { abortSignal: context.signal },
      );
    const role = string(request.properties.Role);
    let made: FunctionConfiguration;
    try {
      made = role ? await this.roles.call(role, send, roleNotYetAssumable) : await send();
    } catch (error) {
      const earlier =
        token && isConflict(error) ? await this.madeBy(client, name, token, context) : undefined;
      if (!earlier) throw error;
      // An earlier attempt of this create made it and its answer was lost: adopt that one.
      made = earlier;
    }
    // The function exists from here, made by this create (or an earlier attempt of it). It may
    // still be Pending: nothing below is refused on a Pending function (Lambda refuses only
    // Invoke, UpdateFunctionCode, UpdateFunctionConfiguration and PublishVersion until Active),
    // and the deploy waits for Active at its end (`untilUsable`).
    // The ARN names the function; the first revision's id and time date this incarnation.
    const creationIdentity: CreationIdentity = {
      Arn: made.FunctionArn!,
      RevisionId: made.RevisionId!,
      LastModified: made.LastModified!,
    };
    try {
      const concurrency = integer(
        request.properties.ReservedConcurrentExecutions,
        'ReservedConcurrentExecutions',
      );
      const reserved =
        concurrency === undefined
          ? undefined
          : await client.send(
              new PutFunctionConcurrencyCommand({
                FunctionName: name,
                ReservedConcurrentExecutions: concurrency,
              }),
              { abortSignal: context.signal },
            );
      return {
        physicalId: name,
        attributes: attributesFor(TYPE, made),
        creationIdentity,
        // The create's answer and the concurrency call's; tags are not in them.
        observed: observedProperties(made, request.properties, {}, reserved?.ReservedConcurrentExecutions),
      };
    } catch (error) {
      // The token tag lets the retry of this create adopt the function instead of colliding.
      throw resourceMade({ physicalId: name, creationIdentity }, error);
    }
  }

  /**
   * A function answers Pending to CreateFunction and CloudFormation reports it done only once
   * Active; users invoke right after a deploy, so the deploy waits for it here, at its end.
   */
  async untilUsable(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await lambdaClient(context);
    await waitForFunction(client, request.physicalId, 'active', this.clock, context.signal);
  }

  /**
   * The function a create with this token made. The token tag is the proof, so an
   * explicitly named function counts too: CreateFunction tags it atomically, and a name
   * another function already held is refused before any tag is written.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const name = functionName(request, context);
    try {
      return (await this.madeBy(await lambdaClient(context), name, token, context))
        ? { physicalId: name }
        : 'none';
    } catch (error) {
      if (isNotFound(error)) return 'none';
      throw error;
    }
  }

  /** The configuration of `name` when the create with `token` made it. */
  private async madeBy(
    client: LambdaClient,
    name: string,
    token: string,
    context: ProviderContext,
  ): Promise<FunctionConfiguration | undefined> {
    const live = await client.send(new GetFunctionCommand({ FunctionName: name }), {
      abortSignal: context.signal,
    });
    return live.Tags?.[TOKEN_TAG] === token ? live.Configuration : undefined;
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await lambdaClient(context);
    const name = request.physicalId;
    const changed = changedProperties(request.previousProperties, request.properties);
    const calls = updateCalls(changed);
    const inline = typeof asObject(request.properties.Code)?.ZipFile === 'string';
    let last: FunctionConfiguration | undefined;
    if (calls.code || calls.configuration) {
      // A change still settling (an interrupted deploy, a console edit) would refuse ours with a conflict.
      await waitForFunction(client, name, 'updated', this.clock, context.signal);
    }
    // Code and configuration are separate calls; Lambda refuses the second until the first is done.
    if (calls.code || (inline && changed.includes('Runtime'))) {
      await client.send(
        new UpdateFunctionCodeCommand({
          FunctionName: name,
          ...codeInput(request.properties),
          Architectures: (stringList(request.properties.Architectures) ?? ['x86_64']) as Architecture[],
        }),
        { abortSignal: context.signal },
      );
      last = await waitForFunction(client, name, 'updated', this.clock, context.signal);
    }
    if (calls.configuration) {
      await client.send(
        new UpdateFunctionConfigurationCommand({
          FunctionName: name,
          ...configurationInput(request.properties, name, request.previousProperties),
        }),
        { abortSignal: context.signal },
      );
      last = await waitForFunction(client, name, 'updated', this.clock, context.signal);
    }
    const current = await client.send(new GetFunctionCommand({ FunctionName: name }), {
      abortSignal: context.signal,
    });
    const arn = current.Configuration!.FunctionArn!;
    if (calls.tags)
      await this.syncTags(client, arn, current.Tags ?? {}, tagMap(request.properties.Tags), context);
    if (calls.concurrency) await this.syncConcurrency(client, name, request.properties, context);
    return {
      physicalId: name,
      attributes: attributesFor(TYPE, last ?? current.Configuration!),
      // GetFunction's tags and concurrency, unless the calls after it changed them (they answer nothing).
      observed: observedProperties(
        last ?? current.Configuration!,
        request.properties,
        calls.tags ? {} : (current.Tags ?? {}),
        calls.concurrency ? undefined : current.Concurrency?.ReservedConcurrentExecutions,
      ),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await sendDelete(context, (client, options) =>
      client.send(new DeleteFunctionCommand({ FunctionName: request.physicalId }), options),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    try {
      const current = await client.send(new GetFunctionCommand({ FunctionName: request.physicalId }), {
        abortSignal: context.signal,
      });
      const config = current.Configuration!;
      return {
        properties: observedProperties(
          config,
          request.properties,
          current.Tags ?? {},
          current.Concurrency?.ReservedConcurrentExecutions,
        ),
        attributes: attributesFor(TYPE, config),
        creationIdentity: { Arn: config.FunctionArn! },
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private async syncTags(
    client: LambdaClient,
    arn: string,
    live: Record<string, string>,
    desired: Record<string, string>,
    context: ProviderContext,
  ): Promise<void> {
    const removed = Object.keys(live).filter((key) => !(key in desired) && !managedTag(key));
    if (removed.length > 0) {
      await client.send(new UntagResourceCommand({ Resource: arn, TagKeys: removed }), {
        abortSignal: context.signal,
      });
    }
    if (Object.keys(desired).length > 0) {
      await client.send(new TagResourceCommand({ Resource: arn, Tags: desired }), {
        abortSignal: context.signal,
      });
    }
  }

  private async syncConcurrency(
    client: LambdaClient,
    name: string,
    properties: JsonObject,
    context: ProviderContext,
  ): Promise<void> {
    const value = integer(properties.ReservedConcurrentExecutions, 'ReservedConcurrentExecutions');
    const options = { abortSignal: context.signal };
    if (value === undefined)
      await client.send(new DeleteFunctionConcurrencyCommand({ FunctionName: name }), options);
    else
      await client.send(
        new PutFunctionConcurrencyCommand({ FunctionName: name, ReservedConcurrentExecutions: value }),
        options,
      );
  }
}

function functionName(request: ResourceRequest, context: ProviderContext): string {
  return (
    string(request.properties.FunctionName) ??
    tokenPhysicalName(context.stackName, request, FUNCTION_NAME_RULES)
  );
}

/** Lambda's refusal of a role IAM has not propagated to it yet. */
function roleNotYetAssumable(error: unknown): boolean {
  return retryClassOf(error) === 'iam-propagation' && (error as Error).message.includes('cannot be assumed');
}

function isConflict(error: unknown): boolean {
  return awsErrorCode(error) === 'ResourceConflictException';
}

/** Top-level properties whose JSON differs. */
export function changedProperties(before: JsonObject, after: JsonObject): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
}

/** The live function in template terms (the code is reported as its digest, not its source). */
function observedProperties(
  config: FunctionConfiguration,
  applied: JsonObject,
  tags: Record<string, string>,
  concurrency: number | undefined,
): JsonObject {
  const observed: JsonObject = {
    FunctionName: config.FunctionName,
    Role: config.Role,
    Handler: config.Handler,
    Runtime: config.Runtime,
    Description: config.Description,
    Timeout: config.Timeout,
    MemorySize: config.MemorySize,
    Architectures: config.Architectures,
    CodeSha256: config.CodeSha256,
  };
  if (config.PackageType) observed.PackageType = config.PackageType;
  if (config.Environment?.Variables) observed.Environment = { Variables: config.Environment.Variables };
  if (config.Layers?.length) observed.Layers = config.Layers.map((layer) => layer.Arn);
  if (config.VpcConfig?.SubnetIds?.length) {
    observed.VpcConfig = {
      SubnetIds: config.VpcConfig.SubnetIds,
      SecurityGroupIds: config.VpcConfig.SecurityGroupIds,
    };
  }
  if (config.DeadLetterConfig?.TargetArn)
    observed.DeadLetterConfig = { TargetArn: config.DeadLetterConfig.TargetArn };
  const userTags = Object.entries(tags).filter(([key]) => !managedTag(key));
  if (userTags.length > 0) observed.Tags = userTags.map(([Key, Value]) => ({ Key, Value }));
  if (concurrency !== undefined) observed.ReservedConcurrentExecutions = concurrency;
  return { ...observed, ...observedSettings(config, applied) };
}

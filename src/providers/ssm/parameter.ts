import {
  AddTagsToResourceCommand,
  DeleteParameterCommand,
  DescribeParametersCommand,
  GetParameterCommand,
  ListTagsForResourceCommand,
  PutParameterCommand,
  RemoveTagsFromResourceCommand,
  SSMClient,
  type ParameterMetadata,
  type ParameterTier,
  type ParameterType,
} from '@aws-sdk/client-ssm';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { awsErrorCode } from '../../aws/error-class.js';

import { givenOrTokenName, nameFromToken, namedCreateToken, TOKEN_TAG } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
} from '../provider.js';
import { SINGLE_ATTEMPT, type ClientTuning } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const PARAMETER = 'AWS::SSM::Parameter';

const COVERED = new Set([
  'Name',
  'Type',
  'Value',
  'Description',
  'AllowedPattern',
  'Tier',
  'Tags',
  'DataType',
]);

/** SSM names allow letters, digits and `.-_` (and `/` for paths, which a generated name does not use). */
export const PARAMETER_NAME_RULES = { maxLength: 1011, extraCharacters: '-_.' };

/** AWS::SSM::Parameter. Physical id and Ref: the parameter name. */
export class ParameterProvider extends SdkProvider {
  /** Policies (advanced-tier expiration and notification policies) are not sent. */
  readonly description: ProviderDescription = { type: PARAMETER, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const props = request.properties;
    const name = parameterName(request, context);
    const client = await ssmClient(context);
    const token = namedCreateToken(props.Name, request);
    const tags = [
      ...Object.entries((props.Tags as Record<string, unknown> | undefined) ?? {}),
      ...(token !== undefined ? [[TOKEN_TAG, token] as const] : []),
    ];
    try {
      await (
        await ssmClient(context, SINGLE_ATTEMPT)
      ).send(
        new PutParameterCommand({
          ...putInput(name, props),
          ...(tags.length > 0 ? { Tags: tags.map(([Key, Value]) => ({ Key, Value: String(Value) })) } : {}),
        }),
        { abortSignal: context.signal },
      );
    } catch (error) {
      // A name generated from the token is this create's alone: an earlier attempt put the parameter.
      if (!(generatedFromToken(request) && awsErrorCode(error) === 'ParameterAlreadyExists')) throw error;
    }
    const metadata = await describe(client, name);
    return {
      physicalId: name,
      attributes: attributes(metadata!, props),
      creationIdentity: { Arn: metadata!.ARN!, createdAt: metadata!.LastModifiedDate!.getTime() },
      observed: observedOf(metadata!),
    };
  }

  /**
   * The parameter a create with this token put: its generated name derives from the token; a
   * name the template gives counts only with the token tag PutParameter wrote with it.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!request.idempotencyToken) return 'unknown';
    const name = parameterName(request, context);
    const client = await ssmClient(context);
    if (!(await describe(client, name))) return 'none';
    if (generatedFromToken(request)) return { physicalId: name };
    const { TagList } = await client.send(
      new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: name }),
      { abortSignal: context.signal },
    );
    const tagged = TagList?.some((tag) => tag.Key === TOKEN_TAG && tag.Value === request.idempotencyToken);
    return tagged ? { physicalId: name } : 'none';
  }

  /** The parameter's name, known before the call. */
  createName(request: ResourceRequest, context: ProviderContext): string {
    return parameterName(request, context);
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const { physicalId: name, properties: after, previousProperties: before } = request;
    const client = await ssmClient(context);
    const signal = { abortSignal: context.signal };
    await client.send(new PutParameterCommand({ ...putInput(name, after), Overwrite: true }), signal);
    // PutParameter refuses Tags with Overwrite: tags change through the tagging calls.
    const old = (before.Tags as Record<string, unknown> | undefined) ?? {};
    const next = (after.Tags as Record<string, unknown> | undefined) ?? {};
    const removed = Object.keys(old).filter((key) => !(key in next));
    const set = Object.entries(next).filter(([key, value]) => old[key] !== value);
    const target = { ResourceType: 'Parameter' as const, ResourceId: name };
    if (removed.length > 0)
      await client.send(new RemoveTagsFromResourceCommand({ ...target, TagKeys: removed }), signal);
    if (set.length > 0) {
      await client.send(
        new AddTagsToResourceCommand({
          ...target,
          Tags: set.map(([Key, Value]) => ({ Key, Value: String(Value) })),
        }),
        signal,
      );
    }
    const metadata = await describe(client, name);
    return { physicalId: name, attributes: attributes(metadata!, after), observed: observedOf(metadata!) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await ssmClient(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteParameterCommand({ Name: request.physicalId }), {
          abortSignal: context.signal,
        }),
      errorCodeIn('ParameterNotFound'),
    );
  }

  /** Observed properties: everything but Tags (read apart, by ListTagsForResource, when needed). */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await ssmClient(context);
    const metadata = await describe(client, request.physicalId);
    if (!metadata) return undefined;
    const [value, tags] = await Promise.all([
      client.send(new GetParameterCommand({ Name: request.physicalId })),
      client.send(
        new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: request.physicalId }),
      ),
    ]);
    const tagList = (tags.TagList ?? []).filter((tag) => tag.Key !== TOKEN_TAG);
    return {
      properties: {
        ...observedOf(metadata),
        Value: value.Parameter?.Value,
        // A map, as the template gives it.
        ...(tagList.length > 0 ? { Tags: Object.fromEntries(tagList.map((t) => [t.Key, t.Value])) } : {}),
      },
      attributes: { Type: metadata.Type, Value: value.Parameter?.Value },
    };
  }
}

function parameterName(request: ResourceRequest, context: ProviderContext): string {
  // SSM refuses a name starting with "aws" or "ssm" in any case: such a stack's part becomes CloudFormation's CFN.
  const stack = /^(aws|ssm)/i.test(context.stackName) ? 'CFN' : context.stackName;
  return givenOrTokenName(request.properties.Name, stack, request, PARAMETER_NAME_RULES);
}

function generatedFromToken(request: ResourceRequest): boolean {
  return nameFromToken(request.properties.Name, request);
}

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
function ssmClient(context: ProviderContext, tuning: ClientTuning = {}): Promise<SSMClient> {
  return context.clients.client(SSMClient, context.region, tuning);
}

function putInput(name: string, props: JsonObject) {
  return {
    Name: name,
    Type: String(props.Type) as ParameterType,
    Value: String(props.Value),
    ...(props.Description !== undefined ? { Description: String(props.Description) } : {}),
    ...(props.AllowedPattern !== undefined ? { AllowedPattern: String(props.AllowedPattern) } : {}),
    ...(props.Tier !== undefined ? { Tier: String(props.Tier) as ParameterTier } : {}),
    ...(props.DataType !== undefined ? { DataType: String(props.DataType) } : {}),
  };
}

async function describe(client: SSMClient, name: string): Promise<ParameterMetadata | undefined> {
  const output = await client.send(
    new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Name', Option: 'Equals', Values: [name] }] }),
  );
  return output.Parameters?.find((parameter) => parameter.Name === name);
}

/**
 * The parameter as the write's own DescribeParameters (which its identity needs) shows it; the
 * value is only in GetParameter, which a write does not call.
 */
function observedOf(metadata: ParameterMetadata): JsonObject {
  return {
    Name: metadata.Name,
    Type: metadata.Type,
    DataType: metadata.DataType,
    Tier: metadata.Tier,
    ...(metadata.Description !== undefined ? { Description: metadata.Description } : {}),
    ...(metadata.AllowedPattern !== undefined ? { AllowedPattern: metadata.AllowedPattern } : {}),
  };
}

/** GetAtt Type and Value, as CloudFormation returns them: the applied type and value. */
function attributes(metadata: ParameterMetadata, props: JsonObject): JsonObject {
  return { Type: metadata.Type, Value: String(props.Value) };
}

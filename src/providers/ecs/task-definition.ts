import {
  DeregisterTaskDefinitionCommand,
  DescribeTaskDefinitionCommand,
  ListTaskDefinitionsCommand,
  RegisterTaskDefinitionCommand,
  type ECSClient,
  type Tag,
  type TaskDefinition,
} from '@aws-sdk/client-ecs';
import { awsErrorCode, fromEcsShape, SINGLE_ATTEMPT, toEcsShape } from '../../aws/index.js';
import { givenOrTokenName, TOKEN_TAG, type NameRules } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { pick } from '../property-values.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { ecs, ecsTags, templateTags, updateEcsTags } from './client.js';

export const TASK_DEFINITION_TYPE = 'AWS::ECS::TaskDefinition';

/** CloudFormation names an unnamed family `{stack}{logicalId}{SUFFIX}`-like; ECS takes 255 of `[A-Za-z0-9_-]`. */
const FAMILY_RULES: NameRules = { maxLength: 255, extraCharacters: '-_' };

/** What RegisterTaskDefinition sends; every one fixes the revision (a change registers a new one). */
const REGISTERED = [
  'Family',
  'ContainerDefinitions',
  'Cpu',
  'Memory',
  'NetworkMode',
  'RequiresCompatibilities',
  'TaskRoleArn',
  'ExecutionRoleArn',
  'Volumes',
  'PlacementConstraints',
  'IpcMode',
  'PidMode',
  'ProxyConfiguration',
  'EphemeralStorage',
  'RuntimePlatform',
];

/**
 * AWS::ECS::TaskDefinition through RegisterTaskDefinition (tags in the same call) and
 * DeregisterTaskDefinition. A revision is immutable, so any change but the tags replaces it
 * (the schema says so): a new revision is registered and the old one deregistered in the
 * cleanup phase, as CloudFormation does. Physical id and Ref: the revision's ARN.
 */
export class TaskDefinitionProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: TASK_DEFINITION_TYPE,
    covered: [...REGISTERED, 'Tags'],
  };

  /** RegisterTaskDefinition takes no idempotency key: one attempt, `locate` settles a lost answer. */
  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await ecs(context, SINGLE_ATTEMPT);
    const family = familyOf(request, context);
    const properties = { ...pick(request.properties, REGISTERED), Family: family };
    const { taskDefinition, tags } = await client.send(
      new RegisterTaskDefinitionCommand({
        ...(toEcsShape(properties, 'taskDefinition') as unknown as RegisterInput),
        tags: ecsTags(request.properties.Tags, request.idempotencyToken),
      }),
      { abortSignal: context.signal },
    );
    const arn = taskDefinition!.taskDefinitionArn!;
    return {
      physicalId: arn,
      attributes: { TaskDefinitionArn: arn },
      creationIdentity: { TaskDefinitionArn: arn },
      observed: propertiesOf(taskDefinition!, tags),
    };
  }

  /** The revision of the family whose token tag this create wrote, if any. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const client = await ecs(context);
    const family = familyOf(request, context);
    const { taskDefinitionArns } = await client.send(
      new ListTaskDefinitionsCommand({ familyPrefix: family, status: 'ACTIVE' }),
      { abortSignal: context.signal },
    );
    for (const arn of taskDefinitionArns ?? []) {
      const live = await describe(client, arn, context);
      if (live?.tags?.some((tag) => tag.key === TOKEN_TAG && tag.value === token)) return { physicalId: arn };
    }
    return 'none';
  }

  /** Only the tags change in place. */
  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ecs(context);
    await updateEcsTags(
      client,
      request.physicalId,
      request.previousProperties.Tags,
      request.properties.Tags,
      context,
    );
    return { physicalId: request.physicalId, attributes: { TaskDefinitionArn: request.physicalId } };
  }

  /** Deregisters the revision; one already INACTIVE or unknown is gone. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await ecs(context);
    const live = await describe(client, request.physicalId, context);
    if (!live || live.taskDefinition.status === 'INACTIVE') return;
    await client.send(new DeregisterTaskDefinitionCommand({ taskDefinition: request.physicalId }), {
      abortSignal: context.signal,
    });
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const live = await describe(await ecs(context), request.physicalId, context);
    if (!live || live.taskDefinition.status === 'INACTIVE') return undefined;
    return {
      properties: propertiesOf(live.taskDefinition, live.tags),
      attributes: { TaskDefinitionArn: request.physicalId },
      creationIdentity: { TaskDefinitionArn: request.physicalId },
    };
  }
}

type RegisterInput = ConstructorParameters<typeof RegisterTaskDefinitionCommand>[0];

function familyOf(request: ResourceRequest, context: ProviderContext): string {
  return givenOrTokenName(request.properties.Family, context.stackName, request, FAMILY_RULES);
}

/** The registered properties as the template names them. */
function propertiesOf(definition: TaskDefinition, tags: Tag[] | undefined): JsonObject {
  const registered = toEcsShape(Object.fromEntries(REGISTERED.map((key) => [key, true])), 'taskDefinition');
  const given = Object.fromEntries(
    Object.entries(definition).filter(([key, value]) => key in registered && value !== undefined),
  );
  const shaped = templateTags(tags);
  return { ...fromEcsShape(given, 'taskDefinition'), ...(shaped && { Tags: shaped }) };
}

/** ECS answers ClientException for a task definition it does not know. */
async function describe(client: ECSClient, arn: string, context: ProviderContext) {
  try {
    const output = await client.send(
      new DescribeTaskDefinitionCommand({ taskDefinition: arn, include: ['TAGS'] }),
      {
        abortSignal: context.signal,
      },
    );
    return output.taskDefinition && { taskDefinition: output.taskDefinition, tags: output.tags };
  } catch (error) {
    if (awsErrorCode(error) === 'ClientException') return undefined;
    throw error;
  }
}

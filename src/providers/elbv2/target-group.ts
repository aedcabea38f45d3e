import {
  CreateTargetGroupCommand,
  DeleteTargetGroupCommand,
  DescribeTargetGroupAttributesCommand,
  DescribeTargetGroupsCommand,
  ModifyTargetGroupAttributesCommand,
  ModifyTargetGroupCommand,
  type ElasticLoadBalancingV2Client,
  type TargetGroup,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { elbv2NameHolder } from '../cloudcontrol/elbv2-names.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { givenOrTokenName } from '../physical-names.js';
import { changedKeys, pick } from '../property-values.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  NameLookup,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { resourceMade } from '../resource-made.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { withUserSuppliedName } from '../user-supplied-names.js';
import {
  claimNamed,
  createTags,
  elbv2,
  modifyAttributes,
  notFound,
  tagsOf,
  updateElbv2Tags,
} from './client.js';
import { ELBV2_NAME_RULES } from './load-balancer.js';

export const TARGET_GROUP_TYPE = 'AWS::ElasticLoadBalancingV2::TargetGroup';

/** What ModifyTargetGroup changes in place. */
const HEALTH_CHECK = [
  'HealthCheckEnabled',
  'HealthCheckIntervalSeconds',
  'HealthCheckPath',
  'HealthCheckPort',
  'HealthCheckProtocol',
  'HealthCheckTimeoutSeconds',
  'HealthyThresholdCount',
  'UnhealthyThresholdCount',
  'Matcher',
];
/** What only CreateTargetGroup sends (the schema's create-only properties). */
const FIXED = ['Port', 'Protocol', 'ProtocolVersion', 'VpcId', 'TargetType', 'IpAddressType'];
const NUMBERS = new Set([
  'Port',
  'HealthCheckIntervalSeconds',
  'HealthCheckTimeoutSeconds',
  'HealthyThresholdCount',
  'UnhealthyThresholdCount',
]);

/**
 * AWS::ElasticLoadBalancingV2::TargetGroup through CreateTargetGroup (tags in the same call),
 * ModifyTargetGroup, ModifyTargetGroupAttributes and DeleteTargetGroup. Registered targets
 * (`Targets`) are left to Cloud Control. Physical id and Ref: the target group's ARN.
 */
export class TargetGroupProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: TARGET_GROUP_TYPE,
    covered: ['Name', ...FIXED, ...HEALTH_CHECK, 'TargetGroupAttributes', 'Tags'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await elbv2(context);
    const { properties } = request;
    const { TargetGroups } = await client.send(
      new CreateTargetGroupCommand({
        ...(sendable(pick(properties, [...FIXED, ...HEALTH_CHECK])) as object),
        Name: groupName(request, context),
        Tags: createTags(properties, request.idempotencyToken),
      }),
      { abortSignal: context.signal },
    );
    const group = TargetGroups![0]!;
    const arn = group.TargetGroupArn!;
    const creationIdentity = { TargetGroupArn: arn };
    try {
      await modifyAttributes([], properties.TargetGroupAttributes, (Attributes) =>
        client.send(new ModifyTargetGroupAttributesCommand({ TargetGroupArn: arn, Attributes }), {
          abortSignal: context.signal,
        }),
      );
    } catch (error) {
      throw resourceMade({ physicalId: arn, creationIdentity }, error);
    }
    return { physicalId: arn, attributes: attributesOf(group), creationIdentity };
  }

  createName(request: ResourceRequest, context: ProviderContext): string {
    return groupName(request, context);
  }

  /** CreateTargetGroup answers the group holding a name when the settings match: look it up first. */
  nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    return elbv2NameHolder(
      TARGET_GROUP_TYPE,
      withUserSuppliedName(TARGET_GROUP_TYPE, request.properties, context),
      context,
    );
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!request.idempotencyToken) return 'unknown';
    const client = await elbv2(context);
    const live = await describe(client, { Names: [groupName(request, context)] }, context);
    return claimNamed(client, live?.TargetGroupArn, request, context);
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await elbv2(context);
    const arn = request.physicalId;
    const signal = { abortSignal: context.signal };
    const changed = changedKeys(request.previousProperties, request.properties, HEALTH_CHECK);
    if (changed.length > 0) {
      await client.send(
        new ModifyTargetGroupCommand({
          ...(sendable(pick(request.properties, changed)) as object),
          TargetGroupArn: arn,
        }),
        signal,
      );
    }
    await modifyAttributes(
      request.previousProperties.TargetGroupAttributes,
      request.properties.TargetGroupAttributes,
      (Attributes) =>
        client.send(new ModifyTargetGroupAttributesCommand({ TargetGroupArn: arn, Attributes }), signal),
    );
    await updateElbv2Tags(client, arn, request.previousProperties.Tags, request.properties.Tags, context);
    const live = await describe(client, { TargetGroupArns: [arn] }, context);
    return { physicalId: arn, attributes: live ? attributesOf(live) : {} };
  }

  /** A group a listener still forwards to is ResourceInUse (retried while that listener goes); one gone is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await elbv2(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteTargetGroupCommand({ TargetGroupArn: request.physicalId }), {
          abortSignal: context.signal,
        }),
      errorCodeIn('TargetGroupNotFound', 'TargetGroupNotFoundException'),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await elbv2(context);
    const live = await describe(client, { TargetGroupArns: [request.physicalId] }, context);
    if (!live) return undefined;
    const { Attributes } = await client.send(
      new DescribeTargetGroupAttributesCommand({ TargetGroupArn: request.physicalId }),
      { abortSignal: context.signal },
    );
    const { tags } = await tagsOf(client, request.physicalId, context);
    const properties: JsonObject = {
      Name: live.TargetGroupName,
      ...Object.fromEntries(
        [...FIXED, ...HEALTH_CHECK].flatMap((key) => {
          const value = (live as Record<string, unknown>)[key];
          return value === undefined ? [] : [[key, value]];
        }),
      ),
      TargetGroupAttributes: Attributes,
      ...(tags && { Tags: tags }),
    };
    return {
      properties,
      attributes: attributesOf(live),
      creationIdentity: { TargetGroupArn: request.physicalId },
    };
  }
}

/** Numbers the template may give as text, as the API's numbers. */
function sendable(properties: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, NUMBERS.has(key) ? Number(value) : value]),
  );
}

function groupName(request: ResourceRequest, context: ProviderContext): string {
  const sent = withUserSuppliedName(TARGET_GROUP_TYPE, request.properties, context);
  return givenOrTokenName(sent.Name, context.stackName, request, ELBV2_NAME_RULES);
}

function attributesOf(group: TargetGroup): JsonObject {
  const arn = group.TargetGroupArn ?? '';
  return {
    TargetGroupArn: arn,
    TargetGroupFullName: arn.split(':').slice(5).join(':'),
    TargetGroupName: group.TargetGroupName,
    LoadBalancerArns: group.LoadBalancerArns ?? [],
  };
}

async function describe(
  client: ElasticLoadBalancingV2Client,
  by: { Names: string[] } | { TargetGroupArns: string[] },
  context: ProviderContext,
) {
  try {
    const output = await client.send(new DescribeTargetGroupsCommand(by), { abortSignal: context.signal });
    return output.TargetGroups?.[0];
  } catch (error) {
    if (notFound(error, 'TargetGroupNotFound')) return undefined;
    throw error;
  }
}

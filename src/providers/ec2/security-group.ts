import {
  CreateSecurityGroupCommand,
  DeleteSecurityGroupCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import { awsErrorCode } from '../../aws/error-class.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { givenOrTokenName, nameFromToken } from '../physical-names.js';
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
import { resourceMade } from '../resource-made.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import {
  deleteGone,
  describeOne,
  ec2,
  locateByToken,
  retag,
  signalOf,
  tagSpecifications,
  templateTags,
  text,
} from './common.js';
import { ALLOW_ALL_EGRESS, permissionOf, ruleCall, ruleKey, rulesOf, type Direction } from './rule-shape.js';

export const SECURITY_GROUP_TYPE = 'AWS::EC2::SecurityGroup';
const NOT_FOUND = 'InvalidGroup.NotFound';

/**
 * AWS::EC2::SecurityGroup through CreateSecurityGroup (tags in the call), Authorize/Revoke
 * for its inline rules and DeleteSecurityGroup. A group without a name gets a
 * CloudFormation-style one derived from the create's token. Without SecurityGroupEgress the
 * group keeps EC2's allow-all egress, as CloudFormation leaves it; with it, the egress rules
 * are exactly those given. Physical id and Ref: the group id (Cloud Control's identifier).
 */
export class SecurityGroupProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: SECURITY_GROUP_TYPE,
    covered: [
      'GroupDescription',
      'GroupName',
      'SecurityGroupEgress',
      'SecurityGroupIngress',
      'Tags',
      'VpcId',
    ],
    // A group named by name (default VPC only) cannot be sent as a peer by id.
    alsoUncovered: (properties) =>
      (['SecurityGroupIngress', 'SecurityGroupEgress'] as const).filter((name) =>
        (Array.isArray(properties[name]) ? (properties[name] as JsonObject[]) : []).some(
          (rule) => rule.SourceSecurityGroupName !== undefined,
        ),
      ),
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const name = givenOrTokenName(properties.GroupName, context.stackName, request, { maxLength: 255 });
    const tagSpecs = tagSpecifications('security-group', request);
    let groupId: string;
    try {
      const made = await (
        await ec2(context, SINGLE_ATTEMPT)
      ).send(
        new CreateSecurityGroupCommand({
          GroupName: name,
          Description: text(properties.GroupDescription),
          VpcId: text(properties.VpcId),
          ...(tagSpecs && { TagSpecifications: tagSpecs }),
        }),
        signalOf(context),
      );
      groupId = made.GroupId!;
    } catch (error) {
      // A retry after a lost answer meets the group its token named and tagged.
      const located =
        awsErrorCode(error) === 'InvalidGroup.Duplicate' && nameFromToken(properties.GroupName, request)
          ? await this.locate(request, context)
          : 'none';
      if (typeof located !== 'object') throw error;
      groupId = located.physicalId;
    }
    try {
      const client = await ec2(context);
      await changeRules(client, groupId, {}, properties, context);
      return {
        physicalId: groupId,
        attributes: { GroupId: groupId, Id: groupId, VpcId: text(properties.VpcId) },
      };
    } catch (error) {
      throw resourceMade({ physicalId: groupId }, error);
    }
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filters, options) => {
      return (await client.send(new DescribeSecurityGroupsCommand({ Filters }), options)).SecurityGroups?.[0]
        ?.GroupId;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ec2(context);
    await changeRules(client, request.physicalId, request.previousProperties, request.properties, context);
    await retag(client, request.physicalId, request.previousProperties, request.properties, context);
    const group = await describe(client, request.physicalId, context);
    return {
      physicalId: request.physicalId,
      attributes: { GroupId: request.physicalId, Id: request.physicalId, VpcId: group?.VpcId },
    };
  }

  /** DependencyViolation while another group's rule or an interface still refers to it: the engine retries. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await deleteGone(
      context,
      (client, options) =>
        client.send(new DeleteSecurityGroupCommand({ GroupId: request.physicalId }), options),
      NOT_FOUND,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const group = await describe(await ec2(context), request.physicalId, context);
    if (!group) return undefined;
    const ingress = rulesOf(group.IpPermissions, 'ingress');
    return {
      properties: {
        GroupDescription: group.Description,
        GroupName: group.GroupName,
        VpcId: group.VpcId,
        ...(ingress.length > 0 && { SecurityGroupIngress: ingress }),
        SecurityGroupEgress: rulesOf(group.IpPermissionsEgress, 'egress'),
        ...templateTags(group.Tags),
      },
      attributes: { GroupId: group.GroupId, Id: group.GroupId, VpcId: group.VpcId },
    };
  }
}

/** The rules a direction holds: the template's, and for egress without any, EC2's allow-all. */
function rulesIn(properties: JsonObject, direction: Direction): JsonObject[] {
  const key = direction === 'ingress' ? 'SecurityGroupIngress' : 'SecurityGroupEgress';
  const given = properties[key];
  if (given === undefined) return direction === 'egress' ? [ALLOW_ALL_EGRESS] : [];
  return Array.isArray(given) ? (given as JsonObject[]) : [];
}

/** Revokes the rules `after` drops, then authorizes those it adds (a new group starts with allow-all egress only). */
async function changeRules(
  client: EC2Client,
  groupId: string,
  before: JsonObject,
  after: JsonObject,
  context: ProviderContext,
): Promise<void> {
  for (const direction of ['ingress', 'egress'] as const) {
    const old = new Map(rulesIn(before, direction).map((rule) => [ruleKey(rule, direction), rule]));
    const next = new Map(rulesIn(after, direction).map((rule) => [ruleKey(rule, direction), rule]));
    const revoke = [...old]
      .filter(([key]) => !next.has(key))
      .map(([, rule]) => permissionOf(rule, direction));
    const authorize = [...next]
      .filter(([key]) => !old.has(key))
      .map(([, rule]) => permissionOf(rule, direction));
    if (revoke.length > 0)
      await ruleCall(client, direction, 'revoke', { GroupId: groupId, IpPermissions: revoke }, context);
    if (authorize.length > 0) {
      await ruleCall(client, direction, 'authorize', { GroupId: groupId, IpPermissions: authorize }, context);
    }
  }
}

function describe(
  client: EC2Client,
  groupId: string,
  context: ProviderContext,
): Promise<SecurityGroup | undefined> {
  return describeOne(
    context,
    async (options) =>
      (await client.send(new DescribeSecurityGroupsCommand({ GroupIds: [groupId] }), options)).SecurityGroups,
    NOT_FOUND,
  );
}

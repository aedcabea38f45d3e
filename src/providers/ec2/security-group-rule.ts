import {
  DescribeSecurityGroupRulesCommand,
  type EC2Client,
  type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import { awsErrorCode } from '../../aws/error-class.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
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
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { ec2, orNotFound, signalOf, text } from './common.js';
import { permissionOf, ruleCall, ruleKey, type Direction } from './rule-shape.js';

export const INGRESS_TYPE = 'AWS::EC2::SecurityGroupIngress';
export const EGRESS_TYPE = 'AWS::EC2::SecurityGroupEgress';

const COMMON = ['GroupId', 'IpProtocol', 'FromPort', 'ToPort', 'CidrIp', 'CidrIpv6', 'Description'];
const COVERED: Record<Direction, string[]> = {
  ingress: [...COMMON, 'SourceSecurityGroupId', 'SourceSecurityGroupOwnerId', 'SourcePrefixListId'],
  egress: [...COMMON, 'DestinationSecurityGroupId', 'DestinationPrefixListId'],
};
const GONE = errorCodeIn(
  'InvalidGroup.NotFound',
  'InvalidSecurityGroupRuleId.NotFound',
  'InvalidPermission.NotFound',
);

/**
 * AWS::EC2::SecurityGroupIngress / SecurityGroupEgress: one rule of a group, through
 * AuthorizeSecurityGroup* and RevokeSecurityGroup* by its rule id. Physical id and Ref: the
 * rule id (`sgr-...`). A new description is a revoke and an authorize in place (a rule beside
 * the same rule cannot exist, so it cannot be replaced create-first). Rules by group name
 * (default VPC only) are left to Cloud Control.
 */
export class SecurityGroupRuleProvider extends SdkProvider {
  readonly description: ProviderDescription;

  constructor(private readonly direction: Direction) {
    super();
    this.description = {
      type: direction === 'ingress' ? INGRESS_TYPE : EGRESS_TYPE,
      covered: COVERED[direction],
    };
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await ec2(context);
    const groupId = text(request.properties.GroupId) ?? '';
    let ruleId: string | undefined;
    try {
      const rules = await ruleCall(
        client,
        this.direction,
        'authorize',
        { GroupId: groupId, IpPermissions: [permissionOf(request.properties, this.direction)] },
        context,
      );
      ruleId = rules[0]?.SecurityGroupRuleId;
    } catch (error) {
      // A retry after a lost answer meets its own rule: the same rule in the same group.
      if (awsErrorCode(error) !== 'InvalidPermission.Duplicate') throw error;
      ruleId = await this.find(client, request.properties, context);
      if (!ruleId) throw error;
    }
    return { physicalId: ruleId!, attributes: { Id: ruleId } };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const ruleId = await this.find(await ec2(context), request.properties, context);
    return ruleId ? { physicalId: ruleId } : 'none';
  }

  /** Only the description changes in place (the rest replaces): the rule is revoked and authorized again. */
  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ec2(context);
    await deleteTreatingNotFoundAsGone(() => this.revoke(client, request, context), GONE);
    return this.create(request, context);
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await ec2(context);
    await deleteTreatingNotFoundAsGone(() => this.revoke(client, request, context), GONE);
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const rule = await orNotFound(
      async () =>
        (
          await (
            await ec2(context)
          ).send(
            new DescribeSecurityGroupRulesCommand({ SecurityGroupRuleIds: [request.physicalId] }),
            signalOf(context),
          )
        ).SecurityGroupRules?.[0],
      'InvalidSecurityGroupRuleId.NotFound',
    );
    return rule ? { properties: this.templateOf(rule), attributes: { Id: request.physicalId } } : undefined;
  }

  private async revoke(client: EC2Client, request: DeleteRequest, context: ProviderContext): Promise<void> {
    await ruleCall(
      client,
      this.direction,
      'revoke',
      { GroupId: text(request.properties.GroupId) ?? '', SecurityGroupRuleIds: [request.physicalId] },
      context,
    );
  }

  /** The id of the group's rule that is this template rule (protocol, ports, peer). */
  private async find(
    client: EC2Client,
    properties: JsonObject,
    context: ProviderContext,
  ): Promise<string | undefined> {
    const output = await client.send(
      new DescribeSecurityGroupRulesCommand({
        Filters: [{ Name: 'group-id', Values: [text(properties.GroupId) ?? ''] }],
      }),
      signalOf(context),
    );
    const wanted = ruleKey(properties, this.direction);
    return output.SecurityGroupRules?.find(
      (rule) =>
        rule.IsEgress === (this.direction === 'egress') &&
        ruleKey(this.templateOf(rule), this.direction) === wanted,
    )?.SecurityGroupRuleId;
  }

  private templateOf(rule: SecurityGroupRule): JsonObject {
    const group = this.direction === 'ingress' ? 'SourceSecurityGroupId' : 'DestinationSecurityGroupId';
    const prefix = this.direction === 'ingress' ? 'SourcePrefixListId' : 'DestinationPrefixListId';
    return {
      GroupId: rule.GroupId,
      IpProtocol: rule.IpProtocol,
      ...(rule.IpProtocol !== '-1' && { FromPort: rule.FromPort, ToPort: rule.ToPort }),
      ...(rule.CidrIpv4 && { CidrIp: rule.CidrIpv4 }),
      ...(rule.CidrIpv6 && { CidrIpv6: rule.CidrIpv6 }),
      ...(rule.ReferencedGroupInfo?.GroupId && { [group]: rule.ReferencedGroupInfo.GroupId }),
      ...(rule.PrefixListId && { [prefix]: rule.PrefixListId }),
      ...(rule.Description && { Description: rule.Description }),
    };
  }
}

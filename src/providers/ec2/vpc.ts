import {
  CreateVpcCommand,
  DeleteVpcCommand,
  DescribeSecurityGroupsCommand,
  DescribeVpcAttributeCommand,
  DescribeVpcsCommand,
  EC2Client,
  ModifyVpcAttributeCommand,
  type Vpc,
} from '@aws-sdk/client-ec2';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
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
  flagValue,
  locateByToken,
  retag,
  signalOf,
  tagSpecifications,
  templateTags,
  text,
} from './common.js';

export const VPC_TYPE = 'AWS::EC2::VPC';
const NOT_FOUND = 'InvalidVpcID.NotFound';

/** DNS support is on and DNS hostnames off in a new VPC; ModifyVpcAttribute sets one per call. */
const DNS_FLAGS = [
  { property: 'EnableDnsSupport', attribute: 'enableDnsSupport', fresh: true },
  { property: 'EnableDnsHostnames', attribute: 'enableDnsHostnames', fresh: false },
] as const;

/**
 * AWS::EC2::VPC through CreateVpc (tags in the call), ModifyVpcAttribute and DeleteVpc. The
 * IPAM and encryption-control properties are left to Cloud Control. Physical id and Ref: the
 * VPC id, Cloud Control's identifier too. DeleteVpc answers DependencyViolation while what it
 * held is still being released (a NAT gateway's interface lags): the engine retries it.
 */
export class VpcProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: VPC_TYPE,
    covered: ['CidrBlock', 'EnableDnsHostnames', 'EnableDnsSupport', 'InstanceTenancy', 'Tags'],
    replaces: ['CidrBlock', 'InstanceTenancy'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const tagSpecs = tagSpecifications('vpc', request);
    const made = await (
      await ec2(context, SINGLE_ATTEMPT)
    ).send(
      new CreateVpcCommand({
        CidrBlock: text(properties.CidrBlock),
        InstanceTenancy: text(properties.InstanceTenancy) as never,
        ...(tagSpecs && { TagSpecifications: tagSpecs }),
      }),
      signalOf(context),
    );
    const vpcId = made.Vpc!.VpcId!;
    try {
      const client = await ec2(context);
      await setDns(client, vpcId, {}, properties, context);
      return { physicalId: vpcId, attributes: await attributesOf(client, made.Vpc!, context) };
    } catch (error) {
      throw resourceMade({ physicalId: vpcId }, error);
    }
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filters, options) => {
      return (await client.send(new DescribeVpcsCommand({ Filters }), options)).Vpcs?.[0]?.VpcId;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ec2(context);
    await setDns(client, request.physicalId, request.previousProperties, request.properties, context);
    await retag(client, request.physicalId, request.previousProperties, request.properties, context);
    const vpc = await describe(client, request.physicalId, context);
    return {
      physicalId: request.physicalId,
      attributes: vpc ? await attributesOf(client, vpc, context) : {},
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await deleteGone(
      context,
      (client, options) => client.send(new DeleteVpcCommand({ VpcId: request.physicalId }), options),
      NOT_FOUND,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await ec2(context);
    const vpc = await describe(client, request.physicalId, context);
    if (!vpc) return undefined;
    const flags: JsonObject = {};
    for (const { property, attribute } of DNS_FLAGS) {
      const output = await client.send(
        new DescribeVpcAttributeCommand({ VpcId: request.physicalId, Attribute: attribute }),
        signalOf(context),
      );
      flags[property] =
        (attribute === 'enableDnsSupport' ? output.EnableDnsSupport : output.EnableDnsHostnames)?.Value ??
        false;
    }
    return {
      properties: {
        CidrBlock: vpc.CidrBlock,
        InstanceTenancy: vpc.InstanceTenancy,
        ...flags,
        ...templateTags(vpc.Tags),
      },
      attributes: await attributesOf(client, vpc, context),
    };
  }
}

/** Sends each DNS flag whose desired value differs from `before` (absent: the new VPC's value). */
async function setDns(
  client: EC2Client,
  vpcId: string,
  before: JsonObject,
  after: JsonObject,
  context: ProviderContext,
): Promise<void> {
  // Hostnames need support: support goes on first and off last.
  const order = flagValue(after.EnableDnsSupport ?? true) ? DNS_FLAGS : [...DNS_FLAGS].reverse();
  for (const { property, fresh } of order) {
    const value = after[property] === undefined ? fresh : flagValue(after[property]);
    const was = before[property] === undefined ? fresh : flagValue(before[property]);
    if (value === was) continue;
    await client.send(
      new ModifyVpcAttributeCommand({ VpcId: vpcId, [property]: { Value: value } }),
      signalOf(context),
    );
  }
}

function describe(client: EC2Client, vpcId: string, context: ProviderContext): Promise<Vpc | undefined> {
  return describeOne(
    context,
    async (options) => (await client.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }), options)).Vpcs,
    NOT_FOUND,
  );
}

/** What `Fn::GetAtt` reads; the default security group is looked up, as EC2 does not name it on the VPC. */
async function attributesOf(client: EC2Client, vpc: Vpc, context: ProviderContext): Promise<JsonObject> {
  const groups = await client.send(
    new DescribeSecurityGroupsCommand({
      Filters: [
        { Name: 'vpc-id', Values: [vpc.VpcId!] },
        { Name: 'group-name', Values: ['default'] },
      ],
    }),
    signalOf(context),
  );
  const ipv6 = (vpc.Ipv6CidrBlockAssociationSet ?? []).flatMap((a) =>
    a.Ipv6CidrBlock ? [a.Ipv6CidrBlock] : [],
  );
  return {
    VpcId: vpc.VpcId,
    CidrBlock: vpc.CidrBlock,
    CidrBlockAssociations: (vpc.CidrBlockAssociationSet ?? []).map((a) => a.AssociationId),
    DefaultSecurityGroup: groups.SecurityGroups?.[0]?.GroupId,
    Ipv6CidrBlocks: ipv6,
  };
}

import {
  CreateSubnetCommand,
  DeleteSubnetCommand,
  DescribeSubnetsCommand,
  EC2Client,
  ModifySubnetAttributeCommand,
  type Subnet,
} from '@aws-sdk/client-ec2';
import { awsErrorCode } from '../../aws/error-class.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import {
  deleteGone,
  ec2,
  flagValue,
  locateByToken,
  retag,
  tagSpecifications,
  templateTags,
  text,
  tokenFilter,
} from './common.js';
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

export const SUBNET_TYPE = 'AWS::EC2::Subnet';

/**
 * What a CDK VPC's subnets use. The rest (AvailabilityZoneId, IPAM pools, IPv6-native,
 * DNS64, Outposts, private DNS name options) is left to Cloud Control.
 */
const SUBNET_PROPERTIES = [
  'VpcId',
  'CidrBlock',
  'AvailabilityZone',
  'Ipv6CidrBlock',
  'MapPublicIpOnLaunch',
  'AssignIpv6AddressOnCreation',
  'Tags',
];

/** What this provider sends only at create: a change to one needs a new subnet. */
const CREATE_ONLY: ReadonlySet<string> = new Set(['VpcId', 'CidrBlock', 'AvailabilityZone', 'Ipv6CidrBlock']);

/** The two flags ModifySubnetAttribute sets, one per call; both off on a new subnet. */
const FLAGS = ['MapPublicIpOnLaunch', 'AssignIpv6AddressOnCreation'] as const;

/**
 * AWS::EC2::Subnet through CreateSubnet (tags in the same call), ModifySubnetAttribute and
 * DeleteSubnet. Physical id and Ref: the subnet id, which is also Cloud Control's identifier.
 */
export class SubnetProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: SUBNET_TYPE,
    covered: SUBNET_PROPERTIES,
    replaces: CREATE_ONLY,
  };

  /**
   * ModifySubnetAttribute and the tag calls change the rest in place. A property it does not
   * send is Cloud Control's to update (the schema decides), so it never forces a replacement here.
   */

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await ec2(context);
    const token = request.idempotencyToken;
    const { properties } = request;
    const tagSpecs = tagSpecifications('subnet', request);
    let subnet: Subnet;
    try {
      const created = await (
        await ec2(context, SINGLE_ATTEMPT)
      ).send(
        new CreateSubnetCommand({
          VpcId: text(properties.VpcId),
          CidrBlock: text(properties.CidrBlock),
          AvailabilityZone: text(properties.AvailabilityZone),
          Ipv6CidrBlock: text(properties.Ipv6CidrBlock),
          ...(tagSpecs && { TagSpecifications: tagSpecs }),
        }),
        { abortSignal: context.signal },
      );
      subnet = created.Subnet!;
    } catch (error) {
      // An earlier attempt of this create made the subnet and its answer was lost: adopt that one.
      const earlier =
        token && awsErrorCode(error) === 'InvalidSubnet.Conflict'
          ? await madeBy(client, token, context)
          : undefined;
      if (!earlier) throw error;
      subnet = earlier;
    }
    const subnetId = subnet.SubnetId!;
    const creationIdentity = { SubnetArn: subnet.SubnetArn ?? subnetId };
    try {
      const flags = await setFlags(client, subnetId, {}, properties, context);
      return {
        physicalId: subnetId,
        attributes: attributesOf(subnet),
        creationIdentity,
        observed: { ...propertiesOf(subnet), ...flags },
      };
    } catch (error) {
      throw resourceMade({ physicalId: subnetId, creationIdentity }, error);
    }
  }

  /** The subnet a create with this token made: the token tag its CreateSubnet call wrote. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filters, options) => {
      return (await client.send(new DescribeSubnetsCommand({ Filters }), options)).Subnets?.[0]?.SubnetId;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ec2(context);
    const subnetId = request.physicalId;
    await setFlags(client, subnetId, request.previousProperties, request.properties, context);
    await retag(client, subnetId, request.previousProperties, request.properties, context);
    const live = await describe(client, subnetId, context);
    return {
      physicalId: subnetId,
      attributes: live ? attributesOf(live) : {},
      ...(live && { observed: propertiesOf(live) }),
    };
  }

  /** A subnet already gone is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await deleteGone(
      context,
      (client, options) => client.send(new DeleteSubnetCommand({ SubnetId: request.physicalId }), options),
      'InvalidSubnetID.NotFound',
    );
  }

  /** Observed properties: the subnet as DescribeSubnets returns it, with its tags (the token tag left out). */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const subnet = await describe(await ec2(context), request.physicalId, context);
    if (!subnet) return undefined;
    return {
      properties: propertiesOf(subnet),
      attributes: attributesOf(subnet),
      creationIdentity: { SubnetArn: subnet.SubnetArn ?? request.physicalId },
    };
  }
}

/**
 * Sends each flag whose desired value differs from `before` (absent counts as off, EC2's
 * default), one ModifySubnetAttribute per flag as EC2 takes them; returns the flags sent.
 */
async function setFlags(
  client: EC2Client,
  subnetId: string,
  before: JsonObject,
  after: JsonObject,
  context: ProviderContext,
): Promise<JsonObject> {
  const sent: JsonObject = {};
  for (const flag of FLAGS) {
    const value = flagValue(after[flag]);
    if (value === flagValue(before[flag])) continue;
    await client.send(new ModifySubnetAttributeCommand({ SubnetId: subnetId, [flag]: { Value: value } }), {
      abortSignal: context.signal,
    });
    sent[flag] = value;
  }
  return sent;
}

/** The template's properties as EC2 describes the subnet. */
function propertiesOf(subnet: Subnet): JsonObject {
  const ipv6 = subnet.Ipv6CidrBlockAssociationSet?.find(
    (association) => association.Ipv6CidrBlockState?.State === 'associated',
  )?.Ipv6CidrBlock;
  return {
    VpcId: subnet.VpcId,
    CidrBlock: subnet.CidrBlock,
    AvailabilityZone: subnet.AvailabilityZone,
    ...(ipv6 !== undefined && { Ipv6CidrBlock: ipv6 }),
    MapPublicIpOnLaunch: subnet.MapPublicIpOnLaunch ?? false,
    AssignIpv6AddressOnCreation: subnet.AssignIpv6AddressOnCreation ?? false,
    ...templateTags(subnet.Tags),
  };
}

/** What `Fn::GetAtt` reads, as CloudFormation names it. */
function attributesOf(subnet: Subnet): JsonObject {
  const ipv6 = (subnet.Ipv6CidrBlockAssociationSet ?? []).flatMap((association) =>
    association.Ipv6CidrBlock ? [association.Ipv6CidrBlock] : [],
  );
  return {
    SubnetId: subnet.SubnetId,
    VpcId: subnet.VpcId,
    CidrBlock: subnet.CidrBlock,
    AvailabilityZone: subnet.AvailabilityZone,
    AvailabilityZoneId: subnet.AvailabilityZoneId,
    Ipv6CidrBlocks: ipv6,
    ...(subnet.OutpostArn !== undefined && { OutpostArn: subnet.OutpostArn }),
  };
}

async function describe(client: EC2Client, subnetId: string, context: ProviderContext) {
  try {
    const output = await client.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] }), {
      abortSignal: context.signal,
    });
    return output.Subnets?.find((subnet) => subnet.SubnetId === subnetId);
  } catch (error) {
    if (awsErrorCode(error) === 'InvalidSubnetID.NotFound') return undefined;
    throw error;
  }
}

async function madeBy(client: EC2Client, token: string, context: ProviderContext) {
  const output = await client.send(new DescribeSubnetsCommand({ Filters: tokenFilter(token) }), {
    abortSignal: context.signal,
  });
  return output.Subnets?.[0];
}

import {
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  DeleteInternetGatewayCommand,
  DescribeInternetGatewaysCommand,
  DetachInternetGatewayCommand,
  EC2Client,
  type InternetGateway,
} from '@aws-sdk/client-ec2';
import { awsErrorCode } from '../../aws/error-class.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
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

export const INTERNET_GATEWAY_TYPE = 'AWS::EC2::InternetGateway';
export const GATEWAY_ATTACHMENT_TYPE = 'AWS::EC2::VPCGatewayAttachment';
const NOT_FOUND = 'InvalidInternetGatewayID.NotFound';

/** AWS::EC2::InternetGateway through CreateInternetGateway (tags in the call) and DeleteInternetGateway. */
export class InternetGatewayProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: INTERNET_GATEWAY_TYPE, covered: ['Tags'] };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const tagSpecs = tagSpecifications('internet-gateway', request);
    const made = await (
      await ec2(context, SINGLE_ATTEMPT)
    ).send(
      new CreateInternetGatewayCommand({ ...(tagSpecs && { TagSpecifications: tagSpecs }) }),
      signalOf(context),
    );
    const id = made.InternetGateway!.InternetGatewayId!;
    return { physicalId: id, attributes: { InternetGatewayId: id } };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filters, options) => {
      const output = await client.send(new DescribeInternetGatewaysCommand({ Filters }), options);
      return output.InternetGateways?.[0]?.InternetGatewayId;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await retag(
      await ec2(context),
      request.physicalId,
      request.previousProperties,
      request.properties,
      context,
    );
    return { physicalId: request.physicalId, attributes: { InternetGatewayId: request.physicalId } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await deleteGone(
      context,
      (client, options) =>
        client.send(new DeleteInternetGatewayCommand({ InternetGatewayId: request.physicalId }), options),
      NOT_FOUND,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const gateway = await describeGateway(await ec2(context), request.physicalId, context);
    if (!gateway) return undefined;
    return { properties: templateTags(gateway.Tags), attributes: { InternetGatewayId: request.physicalId } };
  }
}

/**
 * AWS::EC2::VPCGatewayAttachment of an internet gateway, through Attach/DetachInternetGateway
 * (a VPN gateway's is left to Cloud Control). Physical id: `IGW|<vpc id>`, Cloud Control's
 * identifier. Another gateway in the template is a detach and an attach in place, as
 * CloudFormation does it (a VPC takes one internet gateway, so a new attachment beside the
 * old one cannot exist).
 */
export class GatewayAttachmentProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: GATEWAY_ATTACHMENT_TYPE,
    covered: ['VpcId', 'InternetGatewayId'],
    replaces: ['VpcId'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { vpcId, gatewayId } = partsOf(request.properties);
    const client = await ec2(context);
    try {
      await client.send(
        new AttachInternetGatewayCommand({ InternetGatewayId: gatewayId, VpcId: vpcId }),
        signalOf(context),
      );
    } catch (error) {
      // A retry after a lost answer finds its own attachment: the pair is the attachment's identity.
      const ours =
        awsErrorCode(error) === 'Resource.AlreadyAssociated' &&
        (await attached(client, gatewayId, vpcId, context));
      if (!ours) throw error;
    }
    return { physicalId: `IGW|${vpcId}`, attributes: { AttachmentType: 'IGW' } };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const { vpcId, gatewayId } = partsOf(request.properties);
    return (await attached(await ec2(context), gatewayId, vpcId, context))
      ? { physicalId: `IGW|${vpcId}` }
      : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const before = partsOf(request.previousProperties);
    const after = partsOf(request.properties);
    if (before.gatewayId !== after.gatewayId) {
      await detach(await ec2(context), before.gatewayId, before.vpcId, context);
      await this.create(request, context);
    }
    return { physicalId: request.physicalId, attributes: { AttachmentType: 'IGW' } };
  }

  /** Detaching is refused (DependencyViolation) while the VPC still maps public addresses; the engine retries. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const { vpcId, gatewayId } = partsOf(request.properties);
    await detach(await ec2(context), gatewayId, vpcId, context);
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const { vpcId, gatewayId } = partsOf(request.properties);
    if (!(await attached(await ec2(context), gatewayId, vpcId, context))) return undefined;
    return {
      properties: { VpcId: vpcId, InternetGatewayId: gatewayId },
      attributes: { AttachmentType: 'IGW' },
    };
  }
}

function partsOf(properties: Record<string, unknown>): { vpcId: string; gatewayId: string } {
  return { vpcId: text(properties.VpcId) ?? '', gatewayId: text(properties.InternetGatewayId) ?? '' };
}

async function detach(
  client: EC2Client,
  gatewayId: string,
  vpcId: string,
  context: ProviderContext,
): Promise<void> {
  await deleteTreatingNotFoundAsGone(
    () =>
      client.send(
        new DetachInternetGatewayCommand({ InternetGatewayId: gatewayId, VpcId: vpcId }),
        signalOf(context),
      ),
    errorCodeIn('Gateway.NotAttached', NOT_FOUND, 'InvalidVpcID.NotFound'),
  );
}

async function attached(
  client: EC2Client,
  gatewayId: string,
  vpcId: string,
  context: ProviderContext,
): Promise<boolean> {
  const gateway = await describeGateway(client, gatewayId, context);
  return (gateway?.Attachments ?? []).some((attachment) => attachment.VpcId === vpcId);
}

function describeGateway(
  client: EC2Client,
  gatewayId: string,
  context: ProviderContext,
): Promise<InternetGateway | undefined> {
  return describeOne(
    context,
    async (options) =>
      (await client.send(new DescribeInternetGatewaysCommand({ InternetGatewayIds: [gatewayId] }), options))
        .InternetGateways,
    NOT_FOUND,
  );
}

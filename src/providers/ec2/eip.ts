import {
  AllocateAddressCommand,
  DescribeAddressesCommand,
  EC2Client,
  ReleaseAddressCommand,
  type Address,
} from '@aws-sdk/client-ec2';
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
  describeOne,
  ec2,
  locateByToken,
  retag,
  signalOf,
  tagSpecifications,
  templateTags,
} from './common.js';

export const EIP_TYPE = 'AWS::EC2::EIP';

/**
 * AWS::EC2::EIP (a VPC address) through AllocateAddress (tags in the call) and
 * ReleaseAddress. Physical id and Ref: the public address, as CloudFormation's Ref answers;
 * the allocation id, which the calls take, is looked up by it.
 */
export class EipProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: EIP_TYPE, covered: ['Domain', 'Tags'] };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const tagSpecs = tagSpecifications('elastic-ip', request);
    const made = await (
      await ec2(context, SINGLE_ATTEMPT)
    ).send(
      new AllocateAddressCommand({ Domain: 'vpc', ...(tagSpecs && { TagSpecifications: tagSpecs }) }),
      signalOf(context),
    );
    return {
      physicalId: made.PublicIp!,
      attributes: { AllocationId: made.AllocationId, PublicIp: made.PublicIp },
    };
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filters, options) => {
      return (await client.send(new DescribeAddressesCommand({ Filters }), options)).Addresses?.[0]?.PublicIp;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ec2(context);
    const address = await describe(client, request.physicalId, context);
    if (address)
      await retag(client, address.AllocationId!, request.previousProperties, request.properties, context);
    return { physicalId: request.physicalId, attributes: attributesOf(address) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await ec2(context);
    const address = await describe(client, request.physicalId, context);
    if (!address) return;
    await deleteTreatingNotFoundAsGone(
      () => client.send(new ReleaseAddressCommand({ AllocationId: address.AllocationId }), signalOf(context)),
      errorCodeIn('InvalidAllocationID.NotFound'),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const address = await describe(await ec2(context), request.physicalId, context);
    if (!address) return undefined;
    return {
      properties: { Domain: address.Domain, ...templateTags(address.Tags) },
      attributes: attributesOf(address),
    };
  }
}

function attributesOf(address: Address | undefined): Record<string, unknown> {
  return address ? { AllocationId: address.AllocationId, PublicIp: address.PublicIp } : {};
}

function describe(
  client: EC2Client,
  publicIp: string,
  context: ProviderContext,
): Promise<Address | undefined> {
  return describeOne(
    context,
    async (options) =>
      (await client.send(new DescribeAddressesCommand({ PublicIps: [publicIp] }), options)).Addresses,
    'InvalidAddress.NotFound',
  );
}

import {
  CreateNatGatewayCommand,
  DeleteNatGatewayCommand,
  DescribeNatGatewaysCommand,
  EC2Client,
  type NatGateway,
} from '@aws-sdk/client-ec2';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { CdkdError } from '../../errors.js';
import { systemClock, type Clock } from '../clock.js';
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

export const NAT_GATEWAY_TYPE = 'AWS::EC2::NatGateway';
const NOT_FOUND = 'NatGatewayNotFound';
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 10_000;
const TIMEOUT_MS = 30 * 60 * 1000;

/**
 * AWS::EC2::NatGateway through CreateNatGateway (its ClientToken the create's token; the
 * token tag for `locate`) and DeleteNatGateway. EC2 answers `pending` and provisions in the
 * background: the create returns at once (routes to a pending gateway are accepted) and
 * `untilUsable` waits for `available`, as CloudFormation does before it reports the gateway
 * done. A delete waits for `deleted`: until then the gateway keeps its subnet, its address
 * and the VPC's internet gateway in use.
 */
export class NatGatewayProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: NAT_GATEWAY_TYPE,
    covered: ['SubnetId', 'AllocationId', 'ConnectivityType', 'PrivateIpAddress', 'Tags'],
  };

  constructor(private readonly clock: Clock = systemClock) {
    super();
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const token = request.idempotencyToken;
    const tagSpecs = tagSpecifications('natgateway', request);
    const made = await (
      await ec2(context, token ? {} : SINGLE_ATTEMPT)
    ).send(
      new CreateNatGatewayCommand({
        SubnetId: text(properties.SubnetId),
        AllocationId: text(properties.AllocationId),
        ConnectivityType: text(properties.ConnectivityType) as never,
        PrivateIpAddress: text(properties.PrivateIpAddress),
        ...(token && { ClientToken: token }),
        ...(tagSpecs && { TagSpecifications: tagSpecs }),
      }),
      signalOf(context),
    );
    const id = made.NatGateway!.NatGatewayId!;
    return { physicalId: id, attributes: attributesOf(made.NatGateway!) };
  }

  async untilUsable(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const gateway = await this.waitFor(
      await ec2(context),
      request.physicalId,
      ['available', 'failed'],
      context,
    );
    if (gateway?.State === 'failed') {
      throw new CdkdError(
        'EC2_NAT_GATEWAY_FAILED',
        `NAT gateway ${request.physicalId} (${request.logicalId}) failed: ${gateway.FailureCode ?? ''} ${gateway.FailureMessage ?? ''}`.trim(),
        {
          hint: 'Fix what EC2 names (an internet gateway attached to the VPC, a free address), then deploy again.',
        },
      );
    }
  }

  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateByToken(request, context, async (client, Filter, options) => {
      const output = await client.send(new DescribeNatGatewaysCommand({ Filter }), options);
      return output.NatGateways?.find((candidate) => candidate.State !== 'deleted')?.NatGatewayId;
    });
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ec2(context);
    await retag(client, request.physicalId, request.previousProperties, request.properties, context);
    const gateway = await describe(client, request.physicalId, context);
    return { physicalId: request.physicalId, attributes: gateway ? attributesOf(gateway) : {} };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await deleteGone(
      context,
      (client, options) =>
        client.send(new DeleteNatGatewayCommand({ NatGatewayId: request.physicalId }), options),
      NOT_FOUND,
    );
    await this.waitFor(await ec2(context), request.physicalId, ['deleted'], context);
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const gateway = await describe(await ec2(context), request.physicalId, context);
    if (!gateway || gateway.State === 'deleted') return undefined;
    const address = gateway.NatGatewayAddresses?.[0];
    return {
      properties: {
        SubnetId: gateway.SubnetId,
        ...(address?.AllocationId && { AllocationId: address.AllocationId }),
        ConnectivityType: gateway.ConnectivityType,
        ...(address?.PrivateIp && { PrivateIpAddress: address.PrivateIp }),
        ...templateTags(gateway.Tags),
      },
      attributes: attributesOf(gateway),
    };
  }

  /** Polls until the gateway reads one of `states` (gone counts as deleted); 1 s to 10 s apart. */
  private async waitFor(
    client: EC2Client,
    natGatewayId: string,
    states: string[],
    context: ProviderContext,
  ): Promise<NatGateway | undefined> {
    const started = this.clock.now();
    let delay = FIRST_DELAY_MS;
    for (;;) {
      const gateway = await describe(client, natGatewayId, context);
      if (!gateway && states.includes('deleted')) return undefined;
      if (gateway && states.includes(gateway.State ?? '')) return gateway;
      if (this.clock.now() - started > TIMEOUT_MS) {
        throw new CdkdError(
          'EC2_WAIT_TIMEOUT',
          `NAT gateway ${natGatewayId} did not become ${states.join(' or ')} within 30 minutes (state ${gateway?.State ?? 'gone'}).`,
          { hint: 'Check the NAT gateway in the VPC console, then run the command again.' },
        );
      }
      await this.clock.sleep(delay, context.signal);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}

function attributesOf(gateway: NatGateway): Record<string, unknown> {
  return {
    NatGatewayId: gateway.NatGatewayId,
    ...(gateway.NatGatewayAddresses?.[0]?.NetworkInterfaceId && {
      EniId: gateway.NatGatewayAddresses[0].NetworkInterfaceId,
    }),
  };
}

function describe(
  client: EC2Client,
  natGatewayId: string,
  context: ProviderContext,
): Promise<NatGateway | undefined> {
  return describeOne(
    context,
    async (options) =>
      (await client.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [natGatewayId] }), options))
        .NatGateways,
    NOT_FOUND,
  );
}

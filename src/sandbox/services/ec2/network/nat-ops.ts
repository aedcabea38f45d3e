import { ec2Result, itemSet, listParam, tagSet } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import { el, optionalEl } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { filtersOf, passes } from '../filters.js';
import { NetworkView } from '../network.js';
import { lifeOf, liveNatGateways, natGateways, putLife, type NatGatewayView } from './nat-life.js';
import { create, entries, find, idempotent, KINDS, required, specTags, withTags } from './store.js';

const NAT_TYPE = KINDS.nat.type;

/**
 * CreateNatGateway: answers `pending`; the gateway is `available` after the latency model's
 * create time, as EC2 provisions it in the background. What EC2 finds wrong only then (no
 * internet gateway on the VPC, an address another gateway holds) leaves it `failed`.
 */
export async function createNatGateway(call: Ec2Call): Promise<SandboxResponse> {
  const subnetId = required(call.params, 'SubnetId');
  const subnet = find(call, KINDS.subnet, subnetId);
  const connectivity = call.params.get('ConnectivityType') ?? 'public';
  const allocationId = call.params.get('AllocationId');
  if (connectivity === 'public' && !allocationId) throw ec2Errors.missingParameter('AllocationId');
  if (allocationId) find(call, KINDS.eipalloc, allocationId);
  const privateIp = call.params.get('PrivateIpAddress');
  const id = await idempotent(
    call,
    'CreateNatGateway',
    async () => {
      const held = (await liveNatGateways(call)).some((gateway) => gateway.allocationId === allocationId);
      const vpcId = String(subnet.model.VpcId);
      const internet = new NetworkView(call.context.resources, call.request.accountId, call.request.region)
        .models('AWS::EC2::VPCGatewayAttachment')
        .some((attachment) => attachment.VpcId === vpcId && typeof attachment.InternetGatewayId === 'string');
      const model = await create(call, KINDS.nat, {
        SubnetId: subnetId,
        ...(allocationId && { AllocationId: allocationId }),
        ...(connectivity !== 'public' && { ConnectivityType: connectivity }),
        ...(privateIp && { PrivateIpAddress: privateIp }),
        ...withTags(specTags(call.params, 'natgateway')),
      });
      const now = call.context.clock.now();
      const failure =
        connectivity === 'public' && !internet
          ? { code: 'Gateway.NotAttached', message: `Network ${vpcId} has no Internet gateway attached` }
          : held
            ? {
                code: 'Resource.AlreadyAssociated',
                message: `Elastic IP address ${allocationId} is already associated`,
              }
            : undefined;
      await putLife(call, String(model.NatGatewayId), {
        region: call.request.region,
        createdAt: now,
        availableAt: now + call.context.latency.forType(NAT_TYPE, 'create'),
        ...(failure && { failure }),
      });
      return String(model.NatGatewayId);
    },
    (natGatewayId) => entries(call, KINDS.nat).some((entry) => entry.model.NatGatewayId === natGatewayId),
  );
  const gateway = (await natGateways(call)).find((candidate) => candidate.natGatewayId === id)!;
  return ec2Result(
    'CreateNatGateway',
    [optionalEl('clientToken', call.params.get('ClientToken') ?? undefined), el('natGateway', item(gateway))],
    call.request,
  );
}

/** DeleteNatGateway: `deleting` until the latency model's delete time, then `deleted` (listed for a while). */
export async function deleteNatGateway(call: Ec2Call): Promise<SandboxResponse> {
  const natGatewayId = required(call.params, 'NatGatewayId');
  const gateway = (await natGateways(call)).find((candidate) => candidate.natGatewayId === natGatewayId);
  if (!gateway || gateway.state === 'deleted') throw KINDS.nat.notFound(natGatewayId);
  if (gateway.state !== 'deleting') {
    const now = call.context.clock.now();
    const life = lifeOf(call, natGatewayId) ?? {
      region: call.request.region,
      createdAt: gateway.createTime,
      availableAt: gateway.createTime,
    };
    await putLife(call, natGatewayId, {
      ...life,
      deletedAt: now,
      goneAt: now + call.context.latency.forType(NAT_TYPE, 'delete'),
    });
  }
  return ec2Result('DeleteNatGateway', [el('natGatewayId', natGatewayId)], call.request);
}

export async function describeNatGateways(call: Ec2Call): Promise<SandboxResponse> {
  const ids = listParam(call.params, 'NatGatewayId');
  const all = await natGateways(call);
  for (const id of ids) if (!all.some((gateway) => gateway.natGatewayId === id)) throw KINDS.nat.notFound(id);
  const filters = filtersOf(call.params);
  const shown = all.filter(
    (gateway) =>
      (ids.length === 0 || ids.includes(gateway.natGatewayId)) &&
      passes(
        filters,
        {
          'nat-gateway-id': gateway.natGatewayId,
          state: gateway.state,
          'subnet-id': gateway.subnetId,
          'vpc-id': gateway.vpcId,
        },
        gateway.tags,
      ),
  );
  return ec2Result('DescribeNatGateways', [itemSet('natGatewaySet', shown.map(item))], call.request);
}

function item(gateway: NatGatewayView): Array<string | undefined> {
  return [
    el('natGatewayId', gateway.natGatewayId),
    el('subnetId', gateway.subnetId),
    el('vpcId', gateway.vpcId),
    el('state', gateway.state),
    el('connectivityType', gateway.connectivityType),
    el('createTime', new Date(gateway.createTime).toISOString()),
    optionalEl(
      'deleteTime',
      gateway.deleteTime === undefined ? undefined : new Date(gateway.deleteTime).toISOString(),
    ),
    optionalEl('failureCode', gateway.failure?.code),
    optionalEl('failureMessage', gateway.failure?.message),
    itemSet('natGatewayAddressSet', [
      [
        optionalEl('allocationId', gateway.allocationId),
        optionalEl('publicIp', gateway.publicIp),
        el('networkInterfaceId', gateway.networkInterfaceId),
        el('privateIp', gateway.privateIp),
        el('isPrimary', true),
        el('status', 'succeeded'),
      ],
    ]),
    tagSet(gateway.tags),
  ];
}

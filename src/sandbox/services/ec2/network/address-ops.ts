import { ec2Result, itemSet, listParam, tagSet } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import { el, optionalEl } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { filtersOf, passes } from '../filters.js';
import { tagsOf } from '../network.js';
import { liveNatGateways, type NatGatewayView } from './nat-life.js';
import { create, entries, find, KINDS, remove, required, returnTrue, specTags, withTags } from './store.js';

/** AllocateAddress: a VPC address (EC2-Classic is gone), kept as Cloud Control's AWS::EC2::EIP model. */
export async function allocateAddress(call: Ec2Call): Promise<SandboxResponse> {
  const domain = call.params.get('Domain') ?? 'vpc';
  if (domain !== 'vpc' && domain !== 'standard') {
    throw ec2Errors.invalidParameterValue(`Value (${domain}) for parameter domain is invalid.`);
  }
  const model = await create(call, KINDS.eipalloc, {
    Domain: 'vpc',
    ...withTags(specTags(call.params, 'elastic-ip')),
  });
  return ec2Result(
    'AllocateAddress',
    [
      el('publicIp', String(model.PublicIp)),
      el('domain', 'vpc'),
      el('allocationId', String(model.AllocationId)),
      el('publicIpv4Pool', 'amazon'),
      el('networkBorderGroup', call.request.region),
    ],
    call.request,
  );
}

/** ReleaseAddress: refused while a NAT gateway (until deleted) holds the address. */
export async function releaseAddress(call: Ec2Call): Promise<SandboxResponse> {
  const allocationId = required(call.params, 'AllocationId');
  const entry = find(call, KINDS.eipalloc, allocationId);
  if ((await liveNatGateways(call)).some((gateway) => gateway.allocationId === allocationId)) {
    throw ec2Errors.notFound('InvalidIPAddress.InUse', `Address ${String(entry.model.PublicIp)} is in use.`);
  }
  await remove(call, KINDS.eipalloc.type, entry);
  return returnTrue('ReleaseAddress', call);
}

export async function describeAddresses(call: Ec2Call): Promise<SandboxResponse> {
  const ids = listParam(call.params, 'AllocationId');
  const ips = listParam(call.params, 'PublicIp');
  const all = entries(call, KINDS.eipalloc).map((entry) => entry.model);
  for (const id of ids)
    if (!all.some((model) => model.AllocationId === id)) throw KINDS.eipalloc.notFound(id);
  for (const ip of ips) {
    if (!all.some((model) => model.PublicIp === ip)) {
      throw ec2Errors.notFound('InvalidAddress.NotFound', `Address '${ip}' not found.`);
    }
  }
  const holders = await liveNatGateways(call);
  const filters = filtersOf(call.params);
  const shown = all.filter(
    (model) =>
      (ids.length === 0 || ids.includes(String(model.AllocationId))) &&
      (ips.length === 0 || ips.includes(String(model.PublicIp))) &&
      passes(
        filters,
        {
          'allocation-id': String(model.AllocationId),
          'public-ip': String(model.PublicIp),
          domain: 'vpc',
          'network-border-group': call.request.region,
        },
        tagsOf(model),
      ),
  );
  return ec2Result(
    'DescribeAddresses',
    [
      itemSet(
        'addressesSet',
        shown.map((model) =>
          item(
            model,
            holders.find((g) => g.allocationId === model.AllocationId),
            call,
          ),
        ),
      ),
    ],
    call.request,
  );
}

function item(
  model: ResourceModel,
  holder: NatGatewayView | undefined,
  call: Ec2Call,
): Array<string | undefined> {
  return [
    el('publicIp', String(model.PublicIp)),
    el('allocationId', String(model.AllocationId)),
    el('domain', 'vpc'),
    optionalEl('networkInterfaceId', holder?.networkInterfaceId),
    optionalEl('networkInterfaceOwnerId', holder ? call.request.accountId : undefined),
    optionalEl('privateIpAddress', holder?.privateIp),
    el('publicIpv4Pool', 'amazon'),
    el('networkBorderGroup', call.request.region),
    tagSet(tagsOf(model)),
  ];
}

import { ec2Result, itemSet, listParam, tagSet } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import { el } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { filtersOf, passes } from '../filters.js';
import { tagsOf } from '../network.js';
import { liveNatGateways } from './nat-life.js';
import {
  create,
  dependencyViolation,
  entries,
  find,
  KINDS,
  remove,
  required,
  returnTrue,
  specTags,
  withTags,
} from './store.js';

/** An internet gateway's attachment is Cloud Control's AWS::EC2::VPCGatewayAttachment model. */
const ATTACHMENT = 'AWS::EC2::VPCGatewayAttachment';

export async function createInternetGateway(call: Ec2Call): Promise<SandboxResponse> {
  const model = await create(call, KINDS.igw, withTags(specTags(call.params, 'internet-gateway')));
  return ec2Result('CreateInternetGateway', [el('internetGateway', item(call, model))], call.request);
}

/** DeleteInternetGateway: refused while attached, as in EC2. */
export async function deleteInternetGateway(call: Ec2Call): Promise<SandboxResponse> {
  const gatewayId = required(call.params, 'InternetGatewayId');
  const entry = find(call, KINDS.igw, gatewayId);
  if (attachments(call).some((attachment) => attachment.InternetGatewayId === gatewayId)) {
    throw dependencyViolation('internetGateway', gatewayId);
  }
  await remove(call, KINDS.igw.type, entry);
  return returnTrue('DeleteInternetGateway', call);
}

/** AttachInternetGateway: a gateway attaches to one VPC, a VPC takes one gateway. */
export async function attachInternetGateway(call: Ec2Call): Promise<SandboxResponse> {
  const gatewayId = required(call.params, 'InternetGatewayId');
  const vpcId = required(call.params, 'VpcId');
  find(call, KINDS.igw, gatewayId);
  find(call, KINDS.vpc, vpcId);
  const current = attachments(call);
  if (current.some((attachment) => attachment.InternetGatewayId === gatewayId)) {
    throw ec2Errors.notFound(
      'Resource.AlreadyAssociated',
      `resource ${gatewayId} is already attached to network ${String(current.find((a) => a.InternetGatewayId === gatewayId)!.VpcId)}`,
    );
  }
  if (current.some((attachment) => attachment.VpcId === vpcId && attachment.InternetGatewayId)) {
    throw ec2Errors.notFound(
      'Resource.AlreadyAssociated',
      `Network ${vpcId} already has an internet gateway attached`,
    );
  }
  await call.context.resources
    .resolve(ATTACHMENT)!
    .create({ InternetGatewayId: gatewayId, VpcId: vpcId }, call.request.region, call.request.accountId);
  return returnTrue('AttachInternetGateway', call);
}

/**
 * DetachInternetGateway: Gateway.NotAttached when it is not attached to that VPC; refused
 * with DependencyViolation while a NAT gateway in the VPC still maps a public address.
 */
export async function detachInternetGateway(call: Ec2Call): Promise<SandboxResponse> {
  const gatewayId = required(call.params, 'InternetGatewayId');
  const vpcId = required(call.params, 'VpcId');
  find(call, KINDS.igw, gatewayId);
  const handler = call.context.resources.resolve(ATTACHMENT)!;
  const attachment = handler
    .list(call.request.region, call.request.accountId)
    .find((entry) => entry.model.InternetGatewayId === gatewayId && entry.model.VpcId === vpcId);
  if (!attachment) {
    throw ec2Errors.notFound(
      'Gateway.NotAttached',
      `resource ${gatewayId} is not attached to network ${vpcId}`,
    );
  }
  const mapped = (await liveNatGateways(call)).some(
    (gateway) => gateway.vpcId === vpcId && gateway.publicIp !== undefined,
  );
  if (mapped) {
    throw ec2Errors.notFound(
      'DependencyViolation',
      `Network ${vpcId} has some mapped public address(es). Please unmap those public address(es) before detaching the gateway.`,
    );
  }
  await handler.delete(attachment.identifier, call.request.region, call.request.accountId);
  return returnTrue('DetachInternetGateway', call);
}

export function describeInternetGateways(call: Ec2Call): SandboxResponse {
  const ids = listParam(call.params, 'InternetGatewayId');
  const filters = filtersOf(call.params);
  const all = entries(call, KINDS.igw).map((entry) => entry.model);
  for (const id of ids)
    if (!all.some((model) => model.InternetGatewayId === id)) throw KINDS.igw.notFound(id);
  const shown = all.filter((model) => {
    const attached = attachments(call).filter((a) => a.InternetGatewayId === model.InternetGatewayId);
    return (
      (ids.length === 0 || ids.includes(String(model.InternetGatewayId))) &&
      passes(
        filters,
        {
          'internet-gateway-id': String(model.InternetGatewayId),
          'attachment.vpc-id': attached.map((a) => String(a.VpcId)),
          'attachment.state': attached.length > 0 ? 'available' : undefined,
          'owner-id': call.request.accountId,
        },
        tagsOf(model),
      )
    );
  });
  return ec2Result(
    'DescribeInternetGateways',
    [
      itemSet(
        'internetGatewaySet',
        shown.map((model) => item(call, model)),
      ),
    ],
    call.request,
  );
}

function attachments(call: Ec2Call): ResourceModel[] {
  return (call.context.resources.resolve(ATTACHMENT)?.list(call.request.region, call.request.accountId) ?? [])
    .map((entry) => entry.model)
    .filter((model) => typeof model.InternetGatewayId === 'string');
}

function item(call: Ec2Call, model: ResourceModel): string[] {
  const id = String(model.InternetGatewayId);
  return [
    el('internetGatewayId', id),
    el('ownerId', call.request.accountId),
    itemSet(
      'attachmentSet',
      attachments(call)
        .filter((attachment) => attachment.InternetGatewayId === id)
        .map((attachment) => [el('vpcId', String(attachment.VpcId)), el('state', 'available')]),
    ),
    tagSet(tagsOf(model)),
  ];
}

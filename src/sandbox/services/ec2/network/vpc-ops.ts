import { ec2Result } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import { el } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { NetworkView } from '../network.js';
import { vpcItem } from '../render.js';
import { forgetDefaultAcl } from './acl-ops.js';
import { ipv4Block } from './subnet-ops.js';
import { liveNatGateways } from './nat-life.js';
import {
  create,
  dependencyViolation,
  find,
  KINDS,
  remove,
  required,
  returnTrue,
  specTags,
  update,
  withTags,
} from './store.js';

/** CreateVpc: an IPv4 block of /16 to /28, kept as Cloud Control's AWS::EC2::VPC model. */
export async function createVpc(call: Ec2Call): Promise<SandboxResponse> {
  const cidrBlock = required(call.params, 'CidrBlock');
  const block = ipv4Block(cidrBlock);
  if (!block) {
    throw ec2Errors.invalidParameterValue(
      `Value (${cidrBlock}) for parameter cidrBlock is invalid. This is not a valid CIDR block.`,
    );
  }
  if (block.prefix < 16 || block.prefix > 28) {
    throw ec2Errors.notFound('InvalidVpc.Range', `The CIDR '${cidrBlock}' is invalid.`);
  }
  const tenancy = call.params.get('InstanceTenancy');
  const model = await create(call, KINDS.vpc, {
    CidrBlock: cidrBlock,
    ...(tenancy && { InstanceTenancy: tenancy }),
    ...withTags(specTags(call.params, 'vpc')),
  });
  const vpc = network(call)
    .vpcs()
    .find((candidate) => candidate.vpcId === model.VpcId)!;
  return ec2Result(
    'CreateVpc',
    [el('vpc', vpcItem(vpc, call.request.accountId, call.request.region))],
    call.request,
  );
}

/**
 * DeleteVpc: refused with DependencyViolation while the VPC still holds subnets, an
 * attached gateway, route tables, security groups, endpoints, network ACLs other than its
 * default or NAT gateways, as in EC2. Its default network ACL goes with it.
 */
export async function deleteVpc(call: Ec2Call): Promise<SandboxResponse> {
  const vpcId = required(call.params, 'VpcId');
  const entry = find(call, KINDS.vpc, vpcId);
  const inVpc = (models: Array<Record<string, unknown>>) => models.some((model) => model.VpcId === vpcId);
  const view = network(call);
  const natSubnets = new Set((await liveNatGateways(call)).map((gateway) => gateway.subnetId));
  const held =
    inVpc(view.models(KINDS.subnet.type)) ||
    inVpc(view.models('AWS::EC2::VPCGatewayAttachment')) ||
    inVpc(view.models(KINDS.rtb.type)) ||
    inVpc(view.models(KINDS.sg.type)) ||
    inVpc(view.models(KINDS.vpce.type)) ||
    inVpc(view.models(KINDS.acl.type)) ||
    view.subnets().some((subnet) => subnet.vpcId === vpcId && natSubnets.has(subnet.subnetId));
  if (held) throw dependencyViolation('vpc', vpcId);
  await forgetDefaultAcl(
    call,
    view.vpcs().find((vpc) => vpc.vpcId === vpcId)!,
  );
  await remove(call, KINDS.vpc.type, entry);
  return returnTrue('DeleteVpc', call);
}

const FLAGS = ['EnableDnsSupport', 'EnableDnsHostnames'] as const;

/** ModifyVpcAttribute: one of the DNS flags per call, as EC2 takes them. */
export async function modifyVpcAttribute(call: Ec2Call): Promise<SandboxResponse> {
  const entry = find(call, KINDS.vpc, required(call.params, 'VpcId'));
  const given = FLAGS.filter((flag) => call.params.get(`${flag}.Value`) !== null);
  if (given.length !== 1) {
    throw ec2Errors.invalidParameterValue('Exactly one attribute must be specified per request');
  }
  const flag = given[0]!;
  const value = call.params.get(`${flag}.Value`);
  if (value !== 'true' && value !== 'false') {
    throw ec2Errors.invalidParameterValue(`Invalid value '${value}' for ${flag}`);
  }
  const enabled = value === 'true';
  const dnsSupport = entry.model.EnableDnsSupport !== false;
  if (flag === 'EnableDnsHostnames' && enabled && !dnsSupport) {
    throw ec2Errors.invalidParameterValue(
      'Enabling DNS hostnames requires DNS support to be enabled for the VPC.',
    );
  }
  await update(call, KINDS.vpc.type, entry, { [flag]: enabled });
  return returnTrue('ModifyVpcAttribute', call);
}

function network(call: Ec2Call): NetworkView {
  return new NetworkView(call.context.resources, call.request.accountId, call.request.region);
}

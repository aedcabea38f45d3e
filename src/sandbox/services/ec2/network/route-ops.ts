import { ec2Result } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceEntry, ResourceModel } from '../../../resources.js';
import { el } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { NetworkView } from '../network.js';
import { routeTableItem } from '../render.js';
import { liveNatGateways } from './nat-life.js';
import {
  create,
  dependencyViolation,
  entries,
  find,
  handler,
  idempotent,
  KINDS,
  remove,
  required,
  returnTrue,
  specTags,
  update,
  withTags,
} from './store.js';

const ROUTE = 'AWS::EC2::Route';
const DESTINATIONS = ['DestinationCidrBlock', 'DestinationIpv6CidrBlock', 'DestinationPrefixListId'] as const;
/** The targets CreateRoute takes, one per route; Cloud Control's model names them alike. */
const TARGETS = [
  'GatewayId',
  'NatGatewayId',
  'InstanceId',
  'EgressOnlyInternetGatewayId',
  'VpcEndpointId',
  'TransitGatewayId',
  'VpcPeeringConnectionId',
  'NetworkInterfaceId',
  'CarrierGatewayId',
  'LocalGatewayId',
  'CoreNetworkArn',
] as const;

export async function createRouteTable(call: Ec2Call): Promise<SandboxResponse> {
  const vpcId = required(call.params, 'VpcId');
  find(call, KINDS.vpc, vpcId);
  const id = await idempotent(
    call,
    'CreateRouteTable',
    async () =>
      String(
        (await create(call, KINDS.rtb, { VpcId: vpcId, ...withTags(specTags(call.params, 'route-table')) }))
          .RouteTableId,
      ),
    (routeTableId) => entries(call, KINDS.rtb).some((entry) => entry.model.RouteTableId === routeTableId),
  );
  const table = network(call)
    .routeTables()
    .find((candidate) => candidate.routeTableId === id)!;
  return ec2Result(
    'CreateRouteTable',
    [el('routeTable', routeTableItem(table, call.request.accountId))],
    call.request,
  );
}

/** DeleteRouteTable: refused while a subnet is associated; its routes go with it. */
export async function deleteRouteTable(call: Ec2Call): Promise<SandboxResponse> {
  const routeTableId = required(call.params, 'RouteTableId');
  const entry = find(call, KINDS.rtb, routeTableId);
  if (entries(call, KINDS.rtbassoc).some((association) => association.model.RouteTableId === routeTableId)) {
    throw dependencyViolation('routeTable', routeTableId);
  }
  for (const route of routesOf(call, routeTableId)) await remove(call, ROUTE, route);
  await remove(call, KINDS.rtb.type, entry);
  return returnTrue('DeleteRouteTable', call);
}

/** CreateRoute: RouteAlreadyExists for a destination the table routes; a pending NAT gateway is a valid target. */
export async function createRoute(call: Ec2Call): Promise<SandboxResponse> {
  const { table, destination } = await routeRequest(call);
  if (routeAt(call, table, destination)) {
    throw ec2Errors.notFound(
      'RouteAlreadyExists',
      `The route identified by ${destination.value} already exists.`,
    );
  }
  await handler(call, ROUTE).create(
    { RouteTableId: table.model.RouteTableId, [destination.name]: destination.value, ...targetOf(call) },
    call.request.region,
    call.request.accountId,
  );
  return returnTrue('CreateRoute', call);
}

/** ReplaceRoute: points an existing route at another target. */
export async function replaceRoute(call: Ec2Call): Promise<SandboxResponse> {
  const { table, destination } = await routeRequest(call);
  const route = routeAt(call, table, destination);
  if (!route) throw noRoute(destination.value);
  const cleared = Object.fromEntries(TARGETS.map((target) => [target, undefined]));
  await update(call, ROUTE, route, { ...cleared, ...targetOf(call) });
  return returnTrue('ReplaceRoute', call);
}

export async function deleteRoute(call: Ec2Call): Promise<SandboxResponse> {
  const table = find(call, KINDS.rtb, required(call.params, 'RouteTableId'));
  const destination = destinationOf(call);
  const route = routeAt(call, table, destination);
  if (!route) throw noRoute(destination.value);
  await remove(call, ROUTE, route);
  return returnTrue('DeleteRoute', call);
}

/** AssociateRouteTable: a subnet has one explicit association (its table's `Resource.AlreadyAssociated` otherwise). */
export async function associateRouteTable(call: Ec2Call): Promise<SandboxResponse> {
  const routeTableId = required(call.params, 'RouteTableId');
  const subnetId = required(call.params, 'SubnetId');
  const table = find(call, KINDS.rtb, routeTableId);
  const subnet = find(call, KINDS.subnet, subnetId);
  if (subnet.model.VpcId !== table.model.VpcId) {
    throw ec2Errors.invalidParameterValue(
      `Route table ${routeTableId} and subnet ${subnetId} belong to different networks`,
    );
  }
  const existing = entries(call, KINDS.rtbassoc).find((entry) => entry.model.SubnetId === subnetId);
  if (existing) {
    throw ec2Errors.notFound(
      'Resource.AlreadyAssociated',
      `the specified association for route table ${routeTableId} conflicts with an existing association`,
    );
  }
  const model = await create(call, KINDS.rtbassoc, { RouteTableId: routeTableId, SubnetId: subnetId });
  return ec2Result(
    'AssociateRouteTable',
    [el('associationId', String(model.Id)), el('associationState', [el('state', 'associated')])],
    call.request,
  );
}

export async function disassociateRouteTable(call: Ec2Call): Promise<SandboxResponse> {
  const entry = find(call, KINDS.rtbassoc, required(call.params, 'AssociationId'));
  await remove(call, KINDS.rtbassoc.type, entry);
  return returnTrue('DisassociateRouteTable', call);
}

interface Destination {
  name: (typeof DESTINATIONS)[number];
  value: string;
}

function destinationOf(call: Ec2Call): Destination {
  const given = DESTINATIONS.filter((name) => call.params.get(name));
  if (given.length !== 1) {
    throw ec2Errors.missingParameter(
      'destinationCidrBlock or destinationIpv6CidrBlock or destinationPrefixListId',
    );
  }
  return { name: given[0]!, value: call.params.get(given[0]!)! };
}

/** The table, the destination and the target checked: an internet gateway must be attached to the table's VPC, a NAT gateway must exist. */
async function routeRequest(call: Ec2Call): Promise<{ table: ResourceEntry; destination: Destination }> {
  const table = find(call, KINDS.rtb, required(call.params, 'RouteTableId'));
  const destination = destinationOf(call);
  const target = targetOf(call);
  const gatewayId = target.GatewayId;
  if (typeof gatewayId === 'string' && gatewayId.startsWith('igw-')) {
    if (!entries(call, KINDS.igw).some((entry) => entry.model.InternetGatewayId === gatewayId)) {
      throw ec2Errors.notFound('InvalidGatewayID.NotFound', `The gateway ID '${gatewayId}' does not exist`);
    }
    const attachedHere = network(call)
      .models('AWS::EC2::VPCGatewayAttachment')
      .some(
        (attachment) => attachment.InternetGatewayId === gatewayId && attachment.VpcId === table.model.VpcId,
      );
    if (!attachedHere) {
      throw ec2Errors.invalidParameterValue(
        `route table ${String(table.model.RouteTableId)} and network gateway ${gatewayId} belong to different networks`,
      );
    }
  }
  const natGatewayId = target.NatGatewayId;
  if (typeof natGatewayId === 'string') {
    if (!(await liveNatGateways(call)).some((gateway) => gateway.natGatewayId === natGatewayId)) {
      throw ec2Errors.notFound(
        'InvalidNatGatewayID.NotFound',
        `The natGateway ID '${natGatewayId}' does not exist`,
      );
    }
  }
  return { table, destination };
}

function targetOf(call: Ec2Call): ResourceModel {
  const given = TARGETS.filter((name) => call.params.get(name));
  if (given.length !== 1) {
    throw ec2Errors.invalidParameterValue(
      'The request must contain exactly one of gatewayId, natGatewayId, networkInterfaceId, vpcPeeringConnectionId, egressOnlyInternetGatewayId, transitGatewayId, localGatewayId, carrierGatewayId, coreNetworkArn, vpcEndpointId or instanceId',
    );
  }
  return { [given[0]!]: call.params.get(given[0]!) };
}

function routesOf(call: Ec2Call, routeTableId: string): ResourceEntry[] {
  return handler(call, ROUTE)
    .list(call.request.region, call.request.accountId)
    .filter((entry) => entry.model.RouteTableId === routeTableId);
}

function routeAt(call: Ec2Call, table: ResourceEntry, destination: Destination): ResourceEntry | undefined {
  return routesOf(call, String(table.model.RouteTableId)).find(
    (entry) => entry.model[destination.name] === destination.value,
  );
}

function noRoute(destination: string): Error {
  return ec2Errors.notFound(
    'InvalidRoute.NotFound',
    `There is no route defined for '${destination}' in the route table. Use a valid route for the route table.`,
  );
}

function network(call: Ec2Call): NetworkView {
  return new NetworkView(call.context.resources, call.request.accountId, call.request.region);
}

import { createHash } from 'node:crypto';
import { ec2Result, structParams } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import { sandboxSchemaFor } from '../../../resource-index.js';
import type { ResourceEntry, ResourceHandler, ResourceModel } from '../../../resources.js';
import { el } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';

/** One kind of EC2 resource kept as a Cloud Control model: its type, id property and not-found error. */
export interface Kind {
  type: string;
  idField: string;
  notFound: (id: string) => Error;
}

const kind = (type: string, idField: string, code: string, what: string): Kind => ({
  type,
  idField,
  notFound: (id) => ec2Errors.notFound(code, `The ${what} ID '${id}' does not exist`),
});

/** Each kind by the prefix of its ids, as EC2 tells them apart (CreateTags takes any). */
export const KINDS = {
  vpc: kind('AWS::EC2::VPC', 'VpcId', 'InvalidVpcID.NotFound', 'vpc'),
  subnet: kind('AWS::EC2::Subnet', 'SubnetId', 'InvalidSubnetID.NotFound', 'subnet'),
  igw: kind(
    'AWS::EC2::InternetGateway',
    'InternetGatewayId',
    'InvalidInternetGatewayID.NotFound',
    'internetGateway',
  ),
  rtb: kind('AWS::EC2::RouteTable', 'RouteTableId', 'InvalidRouteTableID.NotFound', 'routeTable'),
  rtbassoc: kind(
    'AWS::EC2::SubnetRouteTableAssociation',
    'Id',
    'InvalidAssociationID.NotFound',
    'association',
  ),
  eipalloc: kind('AWS::EC2::EIP', 'AllocationId', 'InvalidAllocationID.NotFound', 'allocation'),
  nat: {
    type: 'AWS::EC2::NatGateway',
    idField: 'NatGatewayId',
    notFound: (id: string) => ec2Errors.notFound('NatGatewayNotFound', `NAT gateway ${id} was not found`),
  },
  sg: {
    type: 'AWS::EC2::SecurityGroup',
    idField: 'GroupId',
    notFound: (id: string) => ec2Errors.groupNotFound(id),
  },
  vpce: kind('AWS::EC2::VPCEndpoint', 'Id', 'InvalidVpcEndpointId.NotFound', 'VpcEndpoint'),
  acl: kind('AWS::EC2::NetworkAcl', 'Id', 'InvalidNetworkAclID.NotFound', 'networkAcl'),
} as const satisfies Record<string, Kind>;

export function handler(call: Ec2Call, type: string): ResourceHandler {
  return call.context.resources.resolve(type)!;
}

export function entries(call: Ec2Call, of: Kind): ResourceEntry[] {
  return handler(call, of.type).list(call.request.region, call.request.accountId);
}

export function find(call: Ec2Call, of: Kind, id: string): ResourceEntry {
  const entry = entries(call, of).find((candidate) => candidate.model[of.idField] === id);
  if (!entry) throw of.notFound(id);
  return entry;
}

export async function create(call: Ec2Call, of: Kind, desired: ResourceModel): Promise<ResourceModel> {
  const made = await handler(call, of.type).create(desired, call.request.region, call.request.accountId);
  return made.model;
}

/** Writes the model back through the store's update with `changes` applied; read-only values stay. */
export async function update(
  call: Ec2Call,
  type: string,
  entry: ResourceEntry,
  changes: ResourceModel,
): Promise<ResourceModel> {
  const writable = new Set(sandboxSchemaFor(type)!.props);
  const desired = Object.fromEntries(
    Object.entries({ ...entry.model, ...changes }).filter(
      ([key, value]) => writable.has(key) && value !== undefined,
    ),
  );
  return handler(call, type).update(entry.identifier, desired, call.request.region, call.request.accountId);
}

export async function remove(call: Ec2Call, type: string, entry: ResourceEntry): Promise<void> {
  await handler(call, type).delete(entry.identifier, call.request.region, call.request.accountId);
}

/** The tags a create call's `TagSpecification.N` gives for `resourceType`. */
export function specTags(
  params: URLSearchParams,
  resourceType: string,
): Array<{ Key: string; Value: string }> {
  return structParams(params, 'TagSpecification')
    .filter((spec) => spec.get('ResourceType') === resourceType)
    .flatMap((spec) => structParams(spec, 'Tag'))
    .map((tag) => ({ Key: tag.get('Key') ?? '', Value: tag.get('Value') ?? '' }));
}

export function withTags(tags: Array<{ Key: string; Value: string }>): ResourceModel {
  return tags.length > 0 ? { Tags: tags } : {};
}

export function returnTrue(action: string, call: Ec2Call): SandboxResponse {
  return ec2Result(action, [el('return', true)], call.request);
}

export function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (!value) throw ec2Errors.missingParameter(name);
  return value;
}

export function dependencyViolation(what: string, id: string): Error {
  return ec2Errors.notFound(
    'DependencyViolation',
    `The ${what} '${id}' has dependencies and cannot be deleted.`,
  );
}

/**
 * EC2's `ClientToken` idempotency: a create repeated with the same token and the same
 * parameters answers the resource the first one made (while it exists); the same token with
 * other parameters is IdempotentParameterMismatch.
 */
export async function idempotent(
  call: Ec2Call,
  action: string,
  make: () => Promise<string>,
  exists: (id: string) => boolean,
): Promise<string> {
  const token = call.params.get('ClientToken');
  if (!token) return make();
  const key = `${call.request.region}/${call.request.accountId}/${action}/${token}`;
  const fingerprint = createHash('sha256')
    .update(
      [...call.params]
        .filter(([name]) => name !== 'ClientToken' && name !== 'Action' && name !== 'Version')
        .map(([name, value]) => `${name}=${value}`)
        .sort()
        .join('&'),
    )
    .digest('hex');
  const earlier = call.ec2State.clientTokens.get(key);
  if (earlier && exists(earlier.id)) {
    if (earlier.fingerprint !== fingerprint) {
      throw ec2Errors.notFound(
        'IdempotentParameterMismatch',
        'The client token you have provided is associated with a resource that was created with different parameters.',
      );
    }
    return earlier.id;
  }
  const id = await make();
  await call.ec2State.clientTokens.put(key, { id, fingerprint });
  return id;
}

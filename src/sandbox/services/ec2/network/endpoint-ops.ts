import { ec2Result, itemSet, listParam, tagSet } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import { el, optionalEl } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { filtersOf, passes } from '../filters.js';
import { tagsOf } from '../network.js';
import {
  create,
  entries,
  find,
  idempotent,
  KINDS,
  remove,
  required,
  specTags,
  update,
  withTags,
} from './store.js';

/** The policy a gateway or interface endpoint gets when none is given: full access. */
const FULL_ACCESS = {
  Version: '2008-10-17',
  Statement: [{ Effect: 'Allow', Principal: '*', Action: '*', Resource: '*' }],
};
/** The services that offer gateway endpoints. */
const GATEWAY_SERVICES = new Set(['s3', 'dynamodb']);

/**
 * CreateVpcEndpoint: a gateway endpoint (S3, DynamoDB) on route tables, or an interface one
 * in subnets with security groups; kept as Cloud Control's AWS::EC2::VPCEndpoint model.
 */
export async function createVpcEndpoint(call: Ec2Call): Promise<SandboxResponse> {
  const p = call.params;
  const vpcId = required(p, 'VpcId');
  const serviceName = required(p, 'ServiceName');
  find(call, KINDS.vpc, vpcId);
  const type = p.get('VpcEndpointType') ?? 'Gateway';
  const service = serviceOf(call, serviceName);
  if (type === 'Gateway' && !GATEWAY_SERVICES.has(service)) {
    throw ec2Errors.invalidParameterValue(
      `The Vpc Endpoint Service '${serviceName}' does not support the endpoint type 'Gateway'.`,
    );
  }
  const routeTableIds = listParam(p, 'RouteTableId');
  const subnetIds = listParam(p, 'SubnetId');
  const groupIds = listParam(p, 'SecurityGroupId');
  for (const id of routeTableIds) find(call, KINDS.rtb, id);
  for (const id of subnetIds) find(call, KINDS.subnet, id);
  for (const id of groupIds) {
    if (!call.securityGroups.list(call.request.region).some((group) => group.groupId === id))
      throw ec2Errors.groupNotFound(id);
  }
  const policy = p.get('PolicyDocument');
  const privateDns = p.get('PrivateDnsEnabled');
  const id = await idempotent(
    call,
    'CreateVpcEndpoint',
    async () =>
      String(
        (
          await create(call, KINDS.vpce, {
            VpcId: vpcId,
            ServiceName: serviceName,
            VpcEndpointType: type,
            PolicyDocument: policy ? parsePolicy(policy) : FULL_ACCESS,
            ...(routeTableIds.length > 0 && { RouteTableIds: routeTableIds }),
            ...(subnetIds.length > 0 && { SubnetIds: subnetIds }),
            ...(groupIds.length > 0 && { SecurityGroupIds: groupIds }),
            ...(type === 'Interface' && {
              PrivateDnsEnabled: privateDns === null ? true : privateDns === 'true',
            }),
            ...withTags(specTags(p, 'vpc-endpoint')),
          })
        ).Id,
      ),
    (endpointId) => entries(call, KINDS.vpce).some((entry) => entry.model.Id === endpointId),
  );
  const model = find(call, KINDS.vpce, id).model;
  return ec2Result(
    'CreateVpcEndpoint',
    [el('vpcEndpoint', item(call, model)), optionalEl('clientToken', p.get('ClientToken') ?? undefined)],
    call.request,
  );
}

/** ModifyVpcEndpoint: route tables, subnets and groups added or removed, the policy replaced or reset, private DNS. */
export async function modifyVpcEndpoint(call: Ec2Call): Promise<SandboxResponse> {
  const p = call.params;
  const entry = find(call, KINDS.vpce, required(p, 'VpcEndpointId'));
  const changed = (
    key: string,
    add: string,
    removeKey: string,
    kind?: typeof KINDS.rtb | typeof KINDS.subnet,
  ) => {
    const added = listParam(p, add);
    const removed = listParam(p, removeKey);
    if (kind) for (const id of added) find(call, kind, id);
    const current = Array.isArray(entry.model[key]) ? (entry.model[key] as string[]) : [];
    const next = [
      ...current.filter((id) => !removed.includes(id)),
      ...added.filter((id) => !current.includes(id)),
    ];
    return next.length > 0 ? next : undefined;
  };
  const policy = p.get('PolicyDocument');
  const privateDns = p.get('PrivateDnsEnabled');
  await update(call, KINDS.vpce.type, entry, {
    RouteTableIds: changed('RouteTableIds', 'AddRouteTableId', 'RemoveRouteTableId', KINDS.rtb),
    SubnetIds: changed('SubnetIds', 'AddSubnetId', 'RemoveSubnetId', KINDS.subnet),
    SecurityGroupIds: changed('SecurityGroupIds', 'AddSecurityGroupId', 'RemoveSecurityGroupId'),
    ...(policy && { PolicyDocument: parsePolicy(policy) }),
    ...(p.get('ResetPolicy') === 'true' && { PolicyDocument: FULL_ACCESS }),
    ...(privateDns !== null && { PrivateDnsEnabled: privateDns === 'true' }),
  });
  return ec2Result('ModifyVpcEndpoint', [el('return', true)], call.request);
}

/** DeleteVpcEndpoints: each id it cannot delete is listed as unsuccessful; the call itself succeeds. */
export async function deleteVpcEndpoints(call: Ec2Call): Promise<SandboxResponse> {
  const ids = listParam(call.params, 'VpcEndpointId');
  if (ids.length === 0) throw ec2Errors.missingParameter('VpcEndpointId');
  const failed: string[] = [];
  for (const id of ids) {
    const entry = entries(call, KINDS.vpce).find((candidate) => candidate.model.Id === id);
    if (entry) await remove(call, KINDS.vpce.type, entry);
    else failed.push(id);
  }
  return ec2Result(
    'DeleteVpcEndpoints',
    [
      itemSet(
        'unsuccessful',
        failed.map((id) => [
          el('error', [
            el('code', 'InvalidVpcEndpoint.NotFound'),
            el('message', `The VpcEndpoint Id '${id}' does not exist`),
          ]),
          el('resourceId', id),
        ]),
      ),
    ],
    call.request,
  );
}

export function describeVpcEndpoints(call: Ec2Call): SandboxResponse {
  const ids = listParam(call.params, 'VpcEndpointId');
  const all = entries(call, KINDS.vpce).map((entry) => entry.model);
  for (const id of ids) if (!all.some((model) => model.Id === id)) throw KINDS.vpce.notFound(id);
  const filters = filtersOf(call.params);
  const shown = all.filter(
    (model) =>
      (ids.length === 0 || ids.includes(String(model.Id))) &&
      passes(
        filters,
        {
          'vpc-endpoint-id': String(model.Id),
          'vpc-id': String(model.VpcId),
          'service-name': String(model.ServiceName),
          'vpc-endpoint-type': String(model.VpcEndpointType ?? 'Gateway'),
          'vpc-endpoint-state': 'available',
        },
        tagsOf(model),
      ),
  );
  return ec2Result(
    'DescribeVpcEndpoints',
    [
      itemSet(
        'vpcEndpointSet',
        shown.map((model) => item(call, model)),
      ),
    ],
    call.request,
  );
}

/** The endpoint services AWS names without a region (S3 Multi-Region Access Points'). */
const GLOBAL_SERVICES: ReadonlySet<string> = new Set(['com.amazonaws.s3-global.accesspoint']);

/**
 * `com.amazonaws.<region>.<service>` (or an endpoint service of the account's, or a global
 * one): the service part.
 */
function serviceOf(call: Ec2Call, serviceName: string): string {
  const prefix = `com.amazonaws.${call.request.region}.`;
  const own = `com.amazonaws.vpce.${call.request.region}.`;
  if (serviceName.startsWith(own)) return serviceName.slice(own.length);
  if (GLOBAL_SERVICES.has(serviceName)) return serviceName.slice('com.amazonaws.'.length);
  if (!serviceName.startsWith(prefix) || serviceName.length === prefix.length) {
    throw ec2Errors.notFound(
      'InvalidServiceName',
      `The Vpc Endpoint Service '${serviceName}' does not exist`,
    );
  }
  return serviceName.slice(prefix.length);
}

function parsePolicy(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw ec2Errors.notFound('InvalidPolicyDocument', 'The policy document is not valid JSON.');
  }
}

function item(call: Ec2Call, model: ResourceModel): Array<string | undefined> {
  const list = (key: string) => (Array.isArray(model[key]) ? (model[key] as string[]) : []);
  const gateway = (model.VpcEndpointType ?? 'Gateway') === 'Gateway';
  return [
    el('vpcEndpointId', String(model.Id)),
    el('vpcEndpointType', String(model.VpcEndpointType ?? 'Gateway')),
    el('vpcId', String(model.VpcId)),
    el('serviceName', String(model.ServiceName)),
    el('state', 'available'),
    el('policyDocument', JSON.stringify(model.PolicyDocument ?? FULL_ACCESS)),
    el(
      'routeTableIdSet',
      list('RouteTableIds').map((id) => el('item', id)),
    ),
    el(
      'subnetIdSet',
      list('SubnetIds').map((id) => el('item', id)),
    ),
    itemSet(
      'groupSet',
      list('SecurityGroupIds').map((id) => [el('groupId', id)]),
    ),
    el('privateDnsEnabled', model.PrivateDnsEnabled === true),
    el('requesterManaged', false),
    el('networkInterfaceIdSet', gateway ? [] : list('NetworkInterfaceIds').map((id) => el('item', id))),
    itemSet(
      'dnsEntrySet',
      gateway
        ? []
        : list('DnsEntries').map((entry) => {
            const [zone, name] = entry.split(':');
            return [el('dnsName', name ?? entry), el('hostedZoneId', zone ?? '')];
          }),
    ),
    tagSet(tagsOf(model)),
    el('ownerId', call.request.accountId),
  ];
}

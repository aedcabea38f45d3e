import { ec2Result, itemSet, listParam, structParams, tagSet } from '../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../request.js';
import type { ResourceHandler, ResourceModel } from '../../resources.js';
import { el, optionalEl } from '../../xml.js';
import type { Ec2Call } from './call.js';
import { ec2Errors } from './ec2-errors.js';
import { filtersOf, passes, type Tags } from './filters.js';
import { NetworkView } from './network.js';

const TYPE = 'AWS::EC2::InstanceConnectEndpoint';

/**
 * EC2 Instance Connect endpoints over EC2's query API, kept as Cloud Control's
 * AWS::EC2::InstanceConnectEndpoint models: one made by a handler is one a stack's
 * CfnInstanceConnectEndpoint could be, in one store. Made complete at once.
 */
function store(call: Ec2Call): ResourceHandler {
  const handler = call.context.resources.resolve(TYPE);
  if (!handler) throw ec2Errors.invalidAction('CreateInstanceConnectEndpoint');
  return handler;
}

const notFound = (id: string) =>
  ec2Errors.notFound(
    'InvalidInstanceConnectEndpointId.NotFound',
    `The instanceConnectEndpoint ID '${id}' does not exist`,
  );

function item(
  call: Ec2Call,
  id: string,
  model: ResourceModel,
  state = 'create-complete',
): Array<string | undefined> {
  const { region, accountId } = call.request;
  const subnet = new NetworkView(call.context.resources, accountId, region)
    .subnets()
    .find((candidate) => candidate.subnetId === model.SubnetId);
  const groups = (model.SecurityGroupIds as string[] | undefined) ?? [];
  return [
    el('ownerId', accountId),
    el('instanceConnectEndpointId', id),
    el('instanceConnectEndpointArn', `arn:aws:ec2:${region}:${accountId}:instance-connect-endpoint/${id}`),
    el('state', state),
    el('stateMessage', ''),
    el('dnsName', `${id}.${accountId}.ec2-instance-connect-endpoint.${region}.amazonaws.com`),
    el('fipsDnsName', `${id}.${accountId}.fips.ec2-instance-connect-endpoint.${region}.amazonaws.com`),
    itemSet('networkInterfaceIdSet', []),
    optionalEl('vpcId', subnet?.vpcId),
    optionalEl('availabilityZone', subnet?.availabilityZone),
    el('createdAt', createdAt(model)),
    el('subnetId', String(model.SubnetId)),
    el('preserveClientIp', model.PreserveClientIp === true),
    el(
      'securityGroupIdSet',
      groups.map((group) => el('item', group)),
    ),
    tagSet((model.Tags as Tags | undefined) ?? []),
  ];
}

/** When the endpoint was made, where the store kept a real time (a generic model may hold a placeholder). */
function createdAt(model: ResourceModel): string {
  const time = Date.parse(String(model.CreatedAt));
  return new Date(Number.isNaN(time) ? Date.now() : time).toISOString();
}

export async function createInstanceConnectEndpoint(call: Ec2Call): Promise<SandboxResponse> {
  const { params } = call;
  const { region, accountId } = call.request;
  const subnetId = params.get('SubnetId');
  if (!subnetId) throw ec2Errors.missingParameter('SubnetId');
  const subnet = new NetworkView(call.context.resources, accountId, region)
    .subnets()
    .find((candidate) => candidate.subnetId === subnetId);
  if (!subnet) {
    throw ec2Errors.notFound('InvalidSubnetID.NotFound', `The subnet ID '${subnetId}' does not exist`);
  }
  const groups = listParam(params, 'SecurityGroupId');
  const tags = structParams(params, 'TagSpecification')
    .flatMap((spec) => structParams(spec, 'Tag'))
    .map((tag) => ({ Key: tag.get('Key') ?? '', Value: tag.get('Value') ?? '' }));
  const desired: ResourceModel = {
    SubnetId: subnetId,
    ...(groups.length > 0 && { SecurityGroupIds: groups }),
    PreserveClientIp: params.get('PreserveClientIp') === 'true',
    ...(tags.length > 0 && { Tags: tags }),
  };
  const entry = await store(call).create(desired, region, accountId);
  const token = params.get('ClientToken');
  return ec2Result(
    'CreateInstanceConnectEndpoint',
    [
      el('instanceConnectEndpoint', item(call, entry.identifier, entry.model)),
      optionalEl('clientToken', token ?? undefined),
    ],
    call.request,
  );
}

export function describeInstanceConnectEndpoints(call: Ec2Call): SandboxResponse {
  const { region, accountId } = call.request;
  const wanted = listParam(call.params, 'InstanceConnectEndpointId');
  const entries = store(call).list(region, accountId);
  for (const id of wanted) if (!entries.some((entry) => entry.identifier === id)) throw notFound(id);
  const filters = filtersOf(call.params);
  const shown = entries
    .filter((entry) => wanted.length === 0 || wanted.includes(entry.identifier))
    .filter((entry) =>
      passes(
        filters,
        {
          'instance-connect-endpoint-id': entry.identifier,
          'subnet-id': String(entry.model.SubnetId),
          state: 'create-complete',
        },
        (entry.model.Tags as Tags | undefined) ?? [],
      ),
    );
  return ec2Result(
    'DescribeInstanceConnectEndpoints',
    [
      itemSet(
        'instanceConnectEndpointSet',
        shown.map((entry) => item(call, entry.identifier, entry.model)),
      ),
    ],
    call.request,
  );
}

export async function deleteInstanceConnectEndpoint(call: Ec2Call): Promise<SandboxResponse> {
  const { region, accountId } = call.request;
  const id = call.params.get('InstanceConnectEndpointId');
  if (!id) throw ec2Errors.missingParameter('InstanceConnectEndpointId');
  const handler = store(call);
  const model = handler.read(id, region, accountId);
  if (!model) throw notFound(id);
  await handler.delete(id, region, accountId);
  return ec2Result(
    'DeleteInstanceConnectEndpoint',
    [el('instanceConnectEndpoint', item(call, id, model, 'delete-in-progress'))],
    call.request,
  );
}

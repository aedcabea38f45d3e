import { ec2Result, itemSet, listParam, structParams, tagSet } from '../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../request.js';
import type { ResourceModel } from '../../resources.js';
import { el, optionalEl } from '../../xml.js';
import type { Ec2Call } from './call.js';
import { ec2Errors } from './ec2-errors.js';
import { filtersOf, passes } from './filters.js';
import { STATE_CODES, type InstanceView } from './instances.js';

/** RunInstances for one instance (MinCount and MaxCount 1, as cdkd and the CDK's handlers ask). */
export async function runInstances(call: Ec2Call): Promise<SandboxResponse> {
  const p = call.params;
  const interfaces = structParams(p, 'NetworkInterface').map((member) => ({
    ...(member.get('SubnetId') ? { SubnetId: member.get('SubnetId') } : {}),
    ...(member.get('AssociatePublicIpAddress')
      ? { AssociatePublicIpAddress: member.get('AssociatePublicIpAddress') === 'true' }
      : {}),
  }));
  const properties: ResourceModel = {
    ...(p.get('ImageId') ? { ImageId: p.get('ImageId') } : {}),
    InstanceType: p.get('InstanceType') ?? 'm1.small',
    ...(p.get('SubnetId') ? { SubnetId: p.get('SubnetId') } : {}),
    ...(p.get('Placement.AvailabilityZone') ? { AvailabilityZone: p.get('Placement.AvailabilityZone') } : {}),
    ...(p.get('PrivateIpAddress') ? { PrivateIpAddress: p.get('PrivateIpAddress') } : {}),
    ...(interfaces.length > 0 ? { NetworkInterfaces: interfaces } : {}),
  };
  const launched = await call.instances.launch(properties, call.request.region, call.request.accountId);
  return ec2Result(
    'RunInstances',
    [
      el('reservationId', reservationId(launched)),
      el('ownerId', call.request.accountId),
      el('groupSet', []),
      itemSet('instancesSet', [instanceItem(launched)]),
    ],
    call.request,
  );
}

export function describeInstances(call: Ec2Call): SandboxResponse {
  const ids = listParam(call.params, 'InstanceId');
  const all = call.instances.list(call.request.region, call.request.accountId);
  const missing = ids.filter((id) => !all.some((instance) => instance.instanceId === id));
  if (missing.length > 0) {
    throw ec2Errors.notFound(
      'InvalidInstanceID.NotFound',
      `The instance ID${missing.length > 1 ? 's' : ''} '${missing.join(', ')}' do${missing.length > 1 ? '' : 'es'} not exist`,
    );
  }
  const filters = filtersOf(call.params);
  const selected = all.filter(
    (instance) =>
      (ids.length === 0 || ids.includes(instance.instanceId)) &&
      passes(
        filters,
        {
          'instance-id': instance.instanceId,
          'instance-state-name': instance.state,
          'instance-state-code': String(STATE_CODES[instance.state]),
          'instance-type': instance.instanceType,
          'image-id': instance.imageId,
          'subnet-id': instance.subnetId,
          'vpc-id': instance.vpcId,
          'availability-zone': instance.availabilityZone,
          'private-ip-address': instance.privateIp,
          'ip-address': instance.publicIp,
        },
        instance.tags,
      ),
  );
  return ec2Result(
    'DescribeInstances',
    [
      itemSet(
        'reservationSet',
        selected.map((instance) => [
          el('reservationId', reservationId(instance)),
          el('ownerId', call.request.accountId),
          el('groupSet', []),
          itemSet('instancesSet', [instanceItem(instance)]),
        ]),
      ),
    ],
    call.request,
  );
}

export async function terminateInstances(call: Ec2Call): Promise<SandboxResponse> {
  const ids = listParam(call.params, 'InstanceId');
  if (ids.length === 0) throw ec2Errors.missingParameter('InstanceId');
  const instances = ids.map((id) => {
    const instance = call.instances.get(id, call.request.region);
    if (!instance)
      throw ec2Errors.notFound('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
    return instance;
  });
  for (const instance of instances) await call.instances.terminate(instance.instanceId);
  return ec2Result(
    'TerminateInstances',
    [
      itemSet(
        'instancesSet',
        instances.map((instance) => [
          el('instanceId', instance.instanceId),
          el('currentState', [el('code', STATE_CODES['shutting-down']), el('name', 'shutting-down')]),
          el('previousState', [el('code', STATE_CODES[instance.state]), el('name', instance.state)]),
        ]),
      ),
    ],
    call.request,
  );
}

function reservationId(instance: InstanceView): string {
  return `r-${instance.instanceId.slice(2)}`;
}

function instanceItem(instance: InstanceView): Array<string | undefined> {
  return [
    el('instanceId', instance.instanceId),
    el('imageId', instance.imageId),
    el('instanceState', [el('code', STATE_CODES[instance.state]), el('name', instance.state)]),
    el('privateDnsName', instance.privateDnsName ?? ''),
    el('dnsName', instance.publicDnsName ?? ''),
    el('instanceType', instance.instanceType),
    el('launchTime', new Date(instance.launchedAt).toISOString()),
    el('placement', [el('availabilityZone', instance.availabilityZone), el('tenancy', 'default')]),
    el('subnetId', instance.subnetId),
    el('vpcId', instance.vpcId),
    optionalEl('privateIpAddress', instance.privateIp),
    optionalEl('ipAddress', instance.publicIp),
    tagSet(instance.tags),
  ];
}

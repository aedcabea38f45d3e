import { SandboxError } from '../../errors.js';
import type { SandboxResponse } from '../../request.js';
import type { ResourceModel } from '../../resources.js';
import { NetworkView } from '../ec2/network.js';
import { attributeList, requiredText, validation } from './params.js';
import {
  byArn,
  type Elbv2Call,
  entries,
  errors,
  LISTENER,
  list,
  LOAD_BALANCER,
  modelTags,
  result,
  RULE,
  store,
  write,
} from './call.js';

/** The attributes an application load balancer answers before any is set, as ELB lists them. */
const DEFAULT_ATTRIBUTES: Record<string, string> = {
  'deletion_protection.enabled': 'false',
  'access_logs.s3.enabled': 'false',
  'idle_timeout.timeout_seconds': '60',
  'routing.http2.enabled': 'true',
  'routing.http.drop_invalid_header_fields.enabled': 'false',
};

/** What a create compares with the load balancer already holding the name (ELB answers that one when they match). */
const SETTINGS = ['Scheme', 'Type', 'IpAddressType'];

export async function createLoadBalancer(call: Elbv2Call): Promise<SandboxResponse> {
  const name = requiredText(call.input, 'Name');
  if (
    name.length > 32 ||
    !/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(name) ||
    name.startsWith('internal-')
  ) {
    throw validation(
      `The load balancer name '${name}' is not valid: up to 32 letters, digits and hyphens, not beginning or ending with a hyphen nor beginning with 'internal-'`,
    );
  }
  const desired: ResourceModel = {
    Name: name,
    Type: call.input.Type ?? 'application',
    Scheme: call.input.Scheme ?? 'internet-facing',
    IpAddressType: call.input.IpAddressType ?? 'ipv4',
    ...(call.input.Subnets !== undefined && { Subnets: call.input.Subnets }),
    ...(call.input.SubnetMappings !== undefined && { SubnetMappings: call.input.SubnetMappings }),
    ...(call.input.SecurityGroups !== undefined && { SecurityGroups: call.input.SecurityGroups }),
    ...(modelTags(call.input.Tags) && { Tags: modelTags(call.input.Tags) }),
  };
  const holder = entries(call, LOAD_BALANCER).find(
    (entry) => entry.model.Name === name || entry.model.LoadBalancerName === name,
  );
  if (holder) {
    if (SETTINGS.some((key) => holder.model[key] !== undefined && holder.model[key] !== desired[key])) {
      throw new SandboxError(
        'DuplicateLoadBalancerName',
        'A load balancer with the same name exists, but with different settings',
        400,
      );
    }
    return result(call, 'CreateLoadBalancer', { LoadBalancers: [render(call, holder.model)] });
  }
  const subnets = list(desired.Subnets).length + list(desired.SubnetMappings).length;
  if (desired.Type === 'application' && subnets < 2) {
    throw validation('At least two subnets in two different Availability Zones must be specified');
  }
  const made = await store(call, LOAD_BALANCER).create(desired, call.request.region, call.request.accountId);
  call.activeAt.set(
    made.identifier,
    call.context.clock.now() + call.context.latency.forType(LOAD_BALANCER, 'create'),
  );
  return result(call, 'CreateLoadBalancer', { LoadBalancers: [render(call, made.model)] });
}

/** ELB answers success for a load balancer already gone; its listeners and their rules go with it. */
export async function deleteLoadBalancer(call: Elbv2Call): Promise<SandboxResponse> {
  const arn = requiredText(call.input, 'LoadBalancerArn');
  const { region, accountId } = call.request;
  const model = store(call, LOAD_BALANCER).read(arn, region, accountId);
  if (model) {
    if (attributesOf(model)['deletion_protection.enabled'] === 'true') {
      throw new SandboxError(
        'OperationNotPermitted',
        `Load balancer '${arn}' cannot be deleted because deletion protection is enabled`,
        400,
      );
    }
    for (const listener of entries(call, LISTENER).filter((entry) => entry.model.LoadBalancerArn === arn)) {
      for (const rule of entries(call, RULE).filter(
        (entry) => entry.model.ListenerArn === listener.identifier,
      )) {
        await store(call, RULE).delete(rule.identifier, region, accountId);
      }
      await store(call, LISTENER).delete(listener.identifier, region, accountId);
    }
    await store(call, LOAD_BALANCER).delete(arn, region, accountId);
    call.activeAt.delete(arn);
  }
  return result(call, 'DeleteLoadBalancer');
}

export function describeLoadBalancerAttributes(call: Elbv2Call): SandboxResponse {
  const entry = byArn(call, LOAD_BALANCER, call.input.LoadBalancerArn, errors.loadBalancerNotFound);
  return result(call, 'DescribeLoadBalancerAttributes', {
    Attributes: attributeList(attributesOf(entry.model)),
  });
}

export async function modifyLoadBalancerAttributes(call: Elbv2Call): Promise<SandboxResponse> {
  const entry = byArn(call, LOAD_BALANCER, call.input.LoadBalancerArn, errors.loadBalancerNotFound);
  const changes = list(call.input.Attributes) as Array<{ Key?: string; Value?: string }>;
  if (changes.length === 0) throw validation('Attributes must not be empty');
  const set = Object.fromEntries(
    (Array.isArray(entry.model.LoadBalancerAttributes)
      ? (entry.model.LoadBalancerAttributes as Array<{ Key: string; Value: string }>)
      : []
    ).map((attribute) => [attribute.Key, attribute.Value]),
  );
  for (const change of changes) set[String(change.Key)] = String(change.Value ?? '');
  const model = await write(call, LOAD_BALANCER, entry, {
    ...entry.model,
    LoadBalancerAttributes: attributeList(set),
  });
  return result(call, 'ModifyLoadBalancerAttributes', { Attributes: attributeList(attributesOf(model)) });
}

/** SetSecurityGroups, SetSubnets and SetIpAddressType: one property each. */
export function setProperty(action: 'SetSecurityGroups' | 'SetSubnets' | 'SetIpAddressType') {
  return async (call: Elbv2Call): Promise<SandboxResponse> => {
    const entry = byArn(call, LOAD_BALANCER, call.input.LoadBalancerArn, errors.loadBalancerNotFound);
    const property =
      action === 'SetSecurityGroups'
        ? 'SecurityGroups'
        : action === 'SetSubnets'
          ? 'Subnets'
          : 'IpAddressType';
    const value = call.input[property] ?? (property === 'SecurityGroups' ? [] : undefined);
    if (value === undefined) throw validation(`${property} must be specified`);
    const model = await write(call, LOAD_BALANCER, entry, { ...entry.model, [property]: value });
    const answer =
      property === 'SecurityGroups'
        ? { SecurityGroupIds: list(model.SecurityGroups) }
        : property === 'Subnets'
          ? { AvailabilityZones: zonesOf(call, model).zones }
          : { IpAddressType: model.IpAddressType };
    return result(call, action, answer);
  };
}

/** A load balancer as DescribeLoadBalancers and CreateLoadBalancer answer it. */
export function render(call: Elbv2Call, model: ResourceModel): Record<string, unknown> {
  const arn = String(model.LoadBalancerArn);
  const zones = zonesOf(call, model);
  const activeAt = call.activeAt.get(arn) ?? 0;
  return {
    LoadBalancerArn: arn,
    DNSName: String(model.DNSName),
    CanonicalHostedZoneId: String(model.CanonicalHostedZoneID),
    LoadBalancerName: String(model.LoadBalancerName ?? model.Name),
    Scheme: String(model.Scheme ?? 'internet-facing'),
    VpcId: zones.vpcId,
    State: { Code: call.context.clock.now() < activeAt ? 'provisioning' : 'active' },
    Type: String(model.Type ?? 'application'),
    AvailabilityZones: zones.zones,
    SecurityGroups: list(model.SecurityGroups),
    IpAddressType: String(model.IpAddressType ?? 'ipv4'),
  };
}

function zonesOf(call: Elbv2Call, model: ResourceModel) {
  const subnetIds = [
    ...list(model.Subnets).map(String),
    ...(list(model.SubnetMappings) as Array<{ SubnetId?: string }>).map((mapping) =>
      String(mapping.SubnetId),
    ),
  ];
  const subnets = new NetworkView(call.context.resources, call.request.accountId, call.request.region)
    .subnets()
    .filter((subnet) => subnetIds.includes(subnet.subnetId));
  const zones = subnets.map((subnet) => ({ ZoneName: subnet.availabilityZone, SubnetId: subnet.subnetId }));
  return { zones, vpcId: subnets[0]?.vpcId ?? '' };
}

function attributesOf(model: ResourceModel): Record<string, string> {
  const set = Array.isArray(model.LoadBalancerAttributes)
    ? (model.LoadBalancerAttributes as Array<{ Key: string; Value: string }>)
    : [];
  return {
    ...DEFAULT_ATTRIBUTES,
    ...Object.fromEntries(set.map((attribute) => [attribute.Key, attribute.Value])),
  };
}

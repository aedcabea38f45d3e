import { SandboxError } from '../../errors.js';
import { queryAction, queryCodec, queryParams, queryResult } from '../../protocols/query.js';
import type { SandboxRequest, SandboxResponse } from '../../request.js';
import type { ResourceHandlers, ResourceModel } from '../../resources.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { el } from '../../xml.js';
import { NetworkView } from '../ec2/network.js';

const XMLNS = 'http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/';

/** `Name.member.1`, `Name.member.2` ...: the query protocol's lists. */
function members(params: URLSearchParams, name: string): string[] {
  const values: string[] = [];
  for (let index = 1; params.has(`${name}.member.${index}`); index++)
    values.push(params.get(`${name}.member.${index}`)!);
  return values;
}

const memberList = (name: string, items: string[]) =>
  el(
    name,
    items.map((item) => el('member', item)),
  );

/**
 * The ELBv2 reads context lookups and cdkd's name lookups make (DescribeLoadBalancers,
 * DescribeTargetGroups, DescribeListeners, DescribeTags), answered from the load balancers,
 * target groups and listeners Cloud Control holds.
 */
export const createElbv2Service: ServiceModuleFactory = async (context) => {
  const models = (type: string, region: string) =>
    (context.resources.resolve(type)?.list(region, context.accountId) ?? []).map((entry) => entry.model);
  const module: ServiceModule = {
    name: 'elasticloadbalancing',
    codec: queryCodec,
    operation: queryAction,
    isMutating: () => false,
    async handle(request, operation) {
      const params = queryParams(request);
      const balancers = models('AWS::ElasticLoadBalancingV2::LoadBalancer', request.region);
      switch (operation) {
        case 'DescribeLoadBalancers':
          return describeLoadBalancers(request, params, balancers, context.resources, context.accountId);
        case 'DescribeTargetGroups':
          return describeTargetGroups(
            request,
            params,
            models('AWS::ElasticLoadBalancingV2::TargetGroup', request.region),
          );
        case 'DescribeListeners':
          return describeListeners(
            request,
            params,
            balancers,
            models('AWS::ElasticLoadBalancingV2::Listener', request.region),
          );
        case 'DescribeTags':
          return describeTags(request, params, [
            ...balancers.map((model) => ({ arn: String(model.LoadBalancerArn), tags: model.Tags })),
            ...models('AWS::ElasticLoadBalancingV2::Listener', request.region).map((model) => ({
              arn: String(model.ListenerArn),
              tags: model.Tags,
            })),
          ]);
        default:
          throw new SandboxError(
            'InvalidAction',
            `The action ${operation} is not valid for this web service.`,
            400,
          );
      }
    },
    inventory: () => ({}),
  };
  return module;
};

const notFound = (what: 'load balancers' | 'listeners' | 'target groups', code: string) =>
  new SandboxError(code, `One or more ${what} not found`, 400);

function describeLoadBalancers(
  request: SandboxRequest,
  params: URLSearchParams,
  balancers: ResourceModel[],
  resources: ResourceHandlers,
  accountId: string,
): SandboxResponse {
  const arns = members(params, 'LoadBalancerArns');
  const names = members(params, 'Names');
  for (const arn of arns) {
    if (!balancers.some((model) => model.LoadBalancerArn === arn))
      throw notFound('load balancers', 'LoadBalancerNotFound');
  }
  // As ELB does: a name no load balancer holds fails the whole call.
  for (const name of names) {
    if (!balancers.some((model) => model.LoadBalancerName === name))
      throw notFound('load balancers', 'LoadBalancerNotFound');
  }
  const subnets = new NetworkView(resources, accountId, request.region).subnets();
  const selected = balancers.filter(
    (model) =>
      (arns.length === 0 || arns.includes(String(model.LoadBalancerArn))) &&
      (names.length === 0 || names.includes(String(model.LoadBalancerName))),
  );
  const items = selected.map((model) => {
    const subnetIds = Array.isArray(model.Subnets) ? (model.Subnets as string[]) : [];
    const inSubnets = subnets.filter((subnet) => subnetIds.includes(subnet.subnetId));
    const securityGroups = Array.isArray(model.SecurityGroups) ? (model.SecurityGroups as string[]) : [];
    return el('member', [
      el('LoadBalancerArn', String(model.LoadBalancerArn)),
      el('DNSName', String(model.DNSName)),
      el('CanonicalHostedZoneId', String(model.CanonicalHostedZoneID)),
      el('LoadBalancerName', String(model.LoadBalancerName)),
      el('Scheme', String(model.Scheme ?? 'internet-facing')),
      el('VpcId', inSubnets[0]?.vpcId ?? ''),
      el('State', [el('Code', 'active')]),
      el('Type', String(model.Type ?? 'application')),
      el(
        'AvailabilityZones',
        inSubnets.map((subnet) =>
          el('member', [el('ZoneName', subnet.availabilityZone), el('SubnetId', subnet.subnetId)]),
        ),
      ),
      memberList('SecurityGroups', securityGroups),
      el('IpAddressType', String(model.IpAddressType ?? 'ipv4')),
    ]);
  });
  return queryResult('DescribeLoadBalancers', XMLNS, [el('LoadBalancers', items)], request);
}

function describeTargetGroups(
  request: SandboxRequest,
  params: URLSearchParams,
  groups: ResourceModel[],
): SandboxResponse {
  const arns = members(params, 'TargetGroupArns');
  const names = members(params, 'Names');
  const balancerArn = params.get('LoadBalancerArn');
  for (const arn of arns) {
    if (!groups.some((model) => model.TargetGroupArn === arn))
      throw notFound('target groups', 'TargetGroupNotFound');
  }
  for (const name of names) {
    if (!groups.some((model) => model.TargetGroupName === name))
      throw notFound('target groups', 'TargetGroupNotFound');
  }
  const selected = groups.filter(
    (model) =>
      (arns.length === 0 || arns.includes(String(model.TargetGroupArn))) &&
      (names.length === 0 || names.includes(String(model.TargetGroupName))) &&
      (!balancerArn ||
        (Array.isArray(model.LoadBalancerArns) && model.LoadBalancerArns.includes(balancerArn))),
  );
  const items = selected.map((model) =>
    el('member', [
      el('TargetGroupArn', String(model.TargetGroupArn)),
      el('TargetGroupName', String(model.TargetGroupName)),
      ...(model.Protocol !== undefined ? [el('Protocol', String(model.Protocol))] : []),
      ...(model.Port !== undefined ? [el('Port', Number(model.Port))] : []),
      ...(model.VpcId !== undefined ? [el('VpcId', String(model.VpcId))] : []),
      el('TargetType', String(model.TargetType ?? 'instance')),
      memberList(
        'LoadBalancerArns',
        Array.isArray(model.LoadBalancerArns) ? model.LoadBalancerArns.map(String) : [],
      ),
    ]),
  );
  return queryResult('DescribeTargetGroups', XMLNS, [el('TargetGroups', items)], request);
}

function describeListeners(
  request: SandboxRequest,
  params: URLSearchParams,
  balancers: ResourceModel[],
  listeners: ResourceModel[],
): SandboxResponse {
  const arns = members(params, 'ListenerArns');
  const balancerArn = params.get('LoadBalancerArn');
  if (balancerArn && !balancers.some((model) => model.LoadBalancerArn === balancerArn)) {
    throw notFound('load balancers', 'LoadBalancerNotFound');
  }
  for (const arn of arns) {
    if (!listeners.some((model) => model.ListenerArn === arn))
      throw notFound('listeners', 'ListenerNotFound');
  }
  const selected = listeners.filter(
    (model) =>
      (arns.length === 0 || arns.includes(String(model.ListenerArn))) &&
      (!balancerArn || model.LoadBalancerArn === balancerArn),
  );
  const items = selected.map((model) =>
    el('member', [
      el('ListenerArn', String(model.ListenerArn)),
      el('LoadBalancerArn', String(model.LoadBalancerArn)),
      el('Port', Number(model.Port)),
      el('Protocol', String(model.Protocol ?? 'HTTP')),
    ]),
  );
  return queryResult('DescribeListeners', XMLNS, [el('Listeners', items)], request);
}

function describeTags(
  request: SandboxRequest,
  params: URLSearchParams,
  taggable: Array<{ arn: string; tags: unknown }>,
): SandboxResponse {
  const descriptions = members(params, 'ResourceArns').map((arn) => {
    const found = taggable.find((candidate) => candidate.arn === arn);
    if (!found) throw notFound('load balancers', 'LoadBalancerNotFound');
    const tags = Array.isArray(found.tags) ? (found.tags as Array<{ Key: string; Value: string }>) : [];
    return el('member', [
      el('ResourceArn', arn),
      el(
        'Tags',
        tags.map((tag) => el('member', [el('Key', tag.Key), el('Value', tag.Value)])),
      ),
    ]);
  });
  return queryResult('DescribeTags', XMLNS, [el('TagDescriptions', descriptions)], request);
}

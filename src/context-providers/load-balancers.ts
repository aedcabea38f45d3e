import {
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  ElasticLoadBalancingV2Client,
  type Listener,
  type LoadBalancer,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ContextQuery } from '../assembly/index.js';
import { LookupError, type Provider } from './provider.js';

interface BalancerQuery {
  loadBalancerType?: string;
  loadBalancerArn?: string;
  loadBalancerTags?: Array<{ key: string; value: string }>;
  listenerArn?: string;
  listenerPort?: number;
  listenerProtocol?: string;
}

/** One load balancer by ARN or tags: `{ loadBalancerArn, loadBalancerCanonicalHostedZoneId, ... }`. */
export const loadBalancer: Provider = async (client, query) => {
  const wanted = query as ContextQuery & BalancerQuery;
  if (!wanted.loadBalancerArn && !wanted.loadBalancerTags) {
    throw new LookupError(
      'The load balancer lookup query must specify either `loadBalancerArn` or `loadBalancerTags`',
    );
  }
  const elb = await client(ElasticLoadBalancingV2Client);
  const found = exactlyOne(await matchingBalancers(elb, wanted), wanted);
  return {
    value: {
      loadBalancerArn: found.LoadBalancerArn,
      loadBalancerCanonicalHostedZoneId: found.CanonicalHostedZoneId,
      loadBalancerDnsName: found.DNSName,
      vpcId: found.VpcId,
      securityGroupIds: found.SecurityGroups ?? [],
      ipAddressType: found.IpAddressType === 'ipv4' ? 'ipv4' : 'dualstack',
    },
  };
};

/** One listener by ARN, or by its balancer (ARN or tags) with port and protocol: `{ listenerArn, listenerPort, securityGroupIds }`. */
export const loadBalancerListener: Provider = async (client, query) => {
  const wanted = query as ContextQuery & BalancerQuery;
  if (!wanted.listenerArn && !wanted.loadBalancerArn && !wanted.loadBalancerTags) {
    throw new LookupError(
      'The load balancer listener query must specify at least one of: `listenerArn`, `loadBalancerArn` or `loadBalancerTags`',
    );
  }
  const elb = await client(ElasticLoadBalancingV2Client);
  if (wanted.listenerArn) {
    const listener = await elb
      .send(new DescribeListenersCommand({ ListenerArns: [wanted.listenerArn] }))
      .then((response) => response.Listeners?.[0])
      .catch(() => undefined);
    if (!listener)
      throw new LookupError(`No load balancer listeners found matching arn ${wanted.listenerArn}`);
    const balancers = await matchingBalancers(elb, { ...wanted, loadBalancerArn: listener.LoadBalancerArn });
    if (balancers.length !== 1)
      throw new LookupError(`No associated load balancer found for listener arn ${wanted.listenerArn}`);
    return { value: listenerValue(listener, balancers[0]!) };
  }
  const balancers = await matchingBalancers(elb, wanted);
  if (balancers.length === 0) {
    throw new LookupError(
      `No associated load balancers found for load balancer listener query ${JSON.stringify(query)}`,
    );
  }
  const listeners: Listener[] = [];
  for (const balancer of balancers) listeners.push(...(await allListeners(elb, balancer.LoadBalancerArn!)));
  const matching = listeners.filter(
    (listener) =>
      (!wanted.listenerPort || listener.Port === wanted.listenerPort) &&
      (!wanted.listenerProtocol || listener.Protocol === wanted.listenerProtocol),
  );
  if (matching.length === 0)
    throw new LookupError(`No load balancer listeners found matching ${JSON.stringify(query)}`);
  if (matching.length > 1) {
    throw new LookupError(
      `Multiple load balancer listeners found matching ${JSON.stringify(query)} - please provide more specific criteria`,
    );
  }
  const owner = balancers.find((balancer) => balancer.LoadBalancerArn === matching[0]!.LoadBalancerArn)!;
  return { value: listenerValue(matching[0]!, owner) };
};

function listenerValue(listener: Listener, balancer: LoadBalancer): Record<string, unknown> {
  return {
    listenerArn: listener.ListenerArn,
    listenerPort: listener.Port,
    securityGroupIds: balancer.SecurityGroups ?? [],
  };
}

function exactlyOne(balancers: LoadBalancer[], query: ContextQuery): LoadBalancer {
  if (balancers.length === 0)
    throw new LookupError(`No load balancers found matching ${JSON.stringify(query)}`);
  if (balancers.length > 1) {
    throw new LookupError(
      `Multiple load balancers found matching ${JSON.stringify(query)} - please provide more specific criteria`,
    );
  }
  return balancers[0]!;
}

/** Balancers of the query's type, by ARN or all, keeping those carrying every tag asked for. */
async function matchingBalancers(
  elb: ElasticLoadBalancingV2Client,
  query: BalancerQuery,
): Promise<LoadBalancer[]> {
  const balancers: LoadBalancer[] = [];
  let marker: string | undefined;
  do {
    const page = await elb.send(
      new DescribeLoadBalancersCommand({
        ...(query.loadBalancerArn ? { LoadBalancerArns: [query.loadBalancerArn] } : {}),
        ...(marker ? { Marker: marker } : {}),
      }),
    );
    balancers.push(...(page.LoadBalancers ?? []));
    marker = page.NextMarker;
  } while (marker);
  const ofType = balancers.filter((balancer) => balancer.Type === query.loadBalancerType);
  if (!query.loadBalancerTags) return ofType;
  const tagged = new Set<string>();
  // DescribeTags takes at most 20 ARNs.
  for (let at = 0; at < ofType.length; at += 20) {
    const arns = ofType.slice(at, at + 20).map((balancer) => balancer.LoadBalancerArn!);
    const described = await elb.send(new DescribeTagsCommand({ ResourceArns: arns }));
    for (const description of described.TagDescriptions ?? []) {
      const has = query.loadBalancerTags.every((wanted) =>
        description.Tags?.some((tag) => tag.Key === wanted.key && tag.Value === wanted.value),
      );
      if (has) tagged.add(description.ResourceArn!);
    }
  }
  return ofType.filter((balancer) => tagged.has(balancer.LoadBalancerArn!));
}

async function allListeners(elb: ElasticLoadBalancingV2Client, loadBalancerArn: string): Promise<Listener[]> {
  const listeners: Listener[] = [];
  let marker: string | undefined;
  do {
    const page = await elb.send(
      new DescribeListenersCommand({
        LoadBalancerArn: loadBalancerArn,
        ...(marker ? { Marker: marker } : {}),
      }),
    );
    listeners.push(...(page.Listeners ?? []));
    marker = page.NextMarker;
  } while (marker);
  return listeners;
}

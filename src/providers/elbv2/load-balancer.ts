import {
  CreateLoadBalancerCommand,
  DeleteLoadBalancerCommand,
  DescribeLoadBalancerAttributesCommand,
  DescribeLoadBalancersCommand,
  ModifyLoadBalancerAttributesCommand,
  SetIpAddressTypeCommand,
  SetSecurityGroupsCommand,
  SetSubnetsCommand,
  type ElasticLoadBalancingV2Client,
  type LoadBalancer,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Clock } from '../clock.js';
import { elbv2NameHolder } from '../cloudcontrol/elbv2-names.js';
import { givenOrTokenName, type NameRules } from '../physical-names.js';
import { pollUntil } from '../poll-until.js';
import { changedKeys } from '../property-values.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  NameLookup,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { resourceMade } from '../resource-made.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { withUserSuppliedName } from '../user-supplied-names.js';
import {
  claimNamed,
  createTags,
  elbv2,
  modifyAttributes,
  notFound,
  tagsOf,
  updateElbv2Tags,
} from './client.js';

export const LOAD_BALANCER_TYPE = 'AWS::ElasticLoadBalancingV2::LoadBalancer';

/** ELB's names: 32 letters, digits and hyphens (user-supplied-names.ts holds the same limit for given names). */
export const ELBV2_NAME_RULES: NameRules = { maxLength: 32, extraCharacters: '-' };

/** CloudFormation waits for a new load balancer to be active; ELB takes minutes. */
const ACTIVE_DEADLINE_MS = 30 * 60_000;

/**
 * AWS::ElasticLoadBalancingV2::LoadBalancer through CreateLoadBalancer (tags in the same
 * call), ModifyLoadBalancerAttributes, SetSecurityGroups, SetSubnets, SetIpAddressType and
 * DeleteLoadBalancer. Physical id and Ref: the load balancer's ARN.
 */
export class LoadBalancerProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: LOAD_BALANCER_TYPE,
    covered: [
      'Name',
      'Scheme',
      'Type',
      'IpAddressType',
      'Subnets',
      'SubnetMappings',
      'SecurityGroups',
      'LoadBalancerAttributes',
      'Tags',
    ],
  };

  constructor(private readonly clock?: Clock) {
    super();
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await elbv2(context);
    const { properties } = request;
    const name = balancerName(request, context);
    const { LoadBalancers } = await client.send(
      new CreateLoadBalancerCommand({
        Name: name,
        Type: properties.Type as 'application' | undefined,
        Scheme: properties.Scheme as 'internet-facing' | undefined,
        IpAddressType: properties.IpAddressType as 'ipv4' | undefined,
        Subnets: properties.Subnets as string[] | undefined,
        SubnetMappings: properties.SubnetMappings as never,
        SecurityGroups: properties.SecurityGroups as string[] | undefined,
        Tags: createTags(properties, request.idempotencyToken),
      }),
      { abortSignal: context.signal },
    );
    const balancer = LoadBalancers![0]!;
    const arn = balancer.LoadBalancerArn!;
    const creationIdentity = { LoadBalancerArn: arn, CreatedTime: balancer.CreatedTime?.toISOString() ?? '' };
    try {
      await modifyAttributes([], properties.LoadBalancerAttributes, (Attributes) =>
        client.send(new ModifyLoadBalancerAttributesCommand({ LoadBalancerArn: arn, Attributes }), {
          abortSignal: context.signal,
        }),
      );
    } catch (error) {
      throw resourceMade({ physicalId: arn, creationIdentity }, error);
    }
    return { physicalId: arn, attributes: attributesOf(balancer), creationIdentity };
  }

  /** CloudFormation reports a load balancer done once it is active (ELB answers provisioning first). */
  async untilUsable(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await elbv2(context);
    await pollUntil(
      async () => {
        const live = await describe(client, { LoadBalancerArns: [request.physicalId] }, context);
        if (!live) throw new Error(`Load balancer ${request.physicalId} is gone; deploy again.`);
        if (live.State?.Code === 'failed') {
          throw new Error(
            `Load balancer ${request.physicalId} failed: ${live.State.Reason ?? 'no reason given'}.`,
          );
        }
        return live.State?.Code === 'active' || live.State?.Code === 'active_impaired' ? 'done' : 'waiting';
      },
      {
        what: `Load balancer ${request.physicalId} turning active`,
        deadlineMs: ACTIVE_DEADLINE_MS,
        console: 'EC2',
        clock: this.clock,
        signal: context.signal,
      },
    );
  }

  createName(request: ResourceRequest, context: ProviderContext): string {
    return balancerName(request, context);
  }

  /** CreateLoadBalancer answers the load balancer holding a name when the settings match: look it up first. */
  nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    return elbv2NameHolder(
      LOAD_BALANCER_TYPE,
      withUserSuppliedName(LOAD_BALANCER_TYPE, request.properties, context),
      context,
    );
  }

  /** The load balancer holding the create's name and its token tag. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!request.idempotencyToken) return 'unknown';
    const client = await elbv2(context);
    const live = await describe(client, { Names: [balancerName(request, context)] }, context);
    return claimNamed(client, live?.LoadBalancerArn, request, context);
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await elbv2(context);
    const arn = request.physicalId;
    const signal = { abortSignal: context.signal };
    const before = request.previousProperties;
    const after = request.properties;
    const changed = changedKeys(before, after, [
      'SecurityGroups',
      'Subnets',
      'SubnetMappings',
      'IpAddressType',
    ]);
    if (changed.includes('SecurityGroups')) {
      await client.send(
        new SetSecurityGroupsCommand({
          LoadBalancerArn: arn,
          SecurityGroups: (after.SecurityGroups as string[]) ?? [],
        }),
        signal,
      );
    }
    if (changed.includes('Subnets') || changed.includes('SubnetMappings')) {
      await client.send(
        new SetSubnetsCommand({
          LoadBalancerArn: arn,
          Subnets: after.Subnets as string[] | undefined,
          SubnetMappings: after.SubnetMappings as never,
        }),
        signal,
      );
    }
    if (changed.includes('IpAddressType')) {
      await client.send(
        new SetIpAddressTypeCommand({
          LoadBalancerArn: arn,
          IpAddressType: (after.IpAddressType ?? 'ipv4') as 'ipv4',
        }),
        signal,
      );
    }
    await modifyAttributes(before.LoadBalancerAttributes, after.LoadBalancerAttributes, (Attributes) =>
      client.send(new ModifyLoadBalancerAttributesCommand({ LoadBalancerArn: arn, Attributes }), signal),
    );
    await updateElbv2Tags(client, arn, before.Tags, after.Tags, context);
    const live = await describe(client, { LoadBalancerArns: [arn] }, context);
    return { physicalId: arn, attributes: live ? attributesOf(live) : {} };
  }

  /** ELB answers success for a load balancer already gone; `--remove-protection` turns deletion protection off first. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await elbv2(context);
    const signal = { abortSignal: context.signal };
    if (
      request.removeProtection &&
      (await describe(client, { LoadBalancerArns: [request.physicalId] }, context))
    ) {
      await client.send(
        new ModifyLoadBalancerAttributesCommand({
          LoadBalancerArn: request.physicalId,
          Attributes: [{ Key: 'deletion_protection.enabled', Value: 'false' }],
        }),
        signal,
      );
    }
    await client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: request.physicalId }), signal);
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await elbv2(context);
    const live = await describe(client, { LoadBalancerArns: [request.physicalId] }, context);
    if (!live) return undefined;
    const { Attributes } = await client.send(
      new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: request.physicalId }),
      { abortSignal: context.signal },
    );
    const { tags } = await tagsOf(client, request.physicalId, context);
    const properties: JsonObject = {
      Name: live.LoadBalancerName,
      Scheme: live.Scheme,
      Type: live.Type,
      IpAddressType: live.IpAddressType,
      Subnets: (live.AvailabilityZones ?? []).map((zone) => zone.SubnetId),
      ...(live.SecurityGroups && live.SecurityGroups.length > 0 && { SecurityGroups: live.SecurityGroups }),
      LoadBalancerAttributes: Attributes,
      ...(tags && { Tags: tags }),
    };
    return {
      properties,
      attributes: attributesOf(live),
      creationIdentity: {
        LoadBalancerArn: request.physicalId,
        CreatedTime: live.CreatedTime?.toISOString() ?? '',
      },
    };
  }
}

/** The name a given Name (stack-prefixed under --prefix-user-supplied-names) or the create's token makes. */
function balancerName(request: ResourceRequest, context: ProviderContext): string {
  const sent = withUserSuppliedName(LOAD_BALANCER_TYPE, request.properties, context);
  return givenOrTokenName(sent.Name, context.stackName, request, ELBV2_NAME_RULES);
}

function attributesOf(balancer: LoadBalancer): JsonObject {
  const arn = balancer.LoadBalancerArn ?? '';
  return {
    LoadBalancerArn: arn,
    DNSName: balancer.DNSName,
    CanonicalHostedZoneID: balancer.CanonicalHostedZoneId,
    LoadBalancerFullName: arn.split(':loadbalancer/')[1],
    LoadBalancerName: balancer.LoadBalancerName,
    SecurityGroups: balancer.SecurityGroups ?? [],
  };
}

async function describe(
  client: ElasticLoadBalancingV2Client,
  by: { Names: string[] } | { LoadBalancerArns: string[] },
  context: ProviderContext,
) {
  try {
    const output = await client.send(new DescribeLoadBalancersCommand(by), { abortSignal: context.signal });
    return output.LoadBalancers?.[0];
  } catch (error) {
    if (notFound(error, 'LoadBalancerNotFound')) return undefined;
    throw error;
  }
}

import { awsErrorCode } from '../../aws/error-class.js';
import type { JsonObject, NameLookup, ProviderContext } from '../provider.js';

/** The ELBv2 types whose create adopts a taken name, what the describe call is, and its not-found codes. */
const ELBV2_NAMED = {
  'AWS::ElasticLoadBalancingV2::LoadBalancer': {
    notFound: ['LoadBalancerNotFound', 'LoadBalancerNotFoundException'],
    holder: async (context: ProviderContext, name: string) => {
      const sdk = await import('@aws-sdk/client-elastic-load-balancing-v2');
      const client = await context.clients.client(sdk.ElasticLoadBalancingV2Client, context.region);
      const found = await client.send(new sdk.DescribeLoadBalancersCommand({ Names: [name] }), {
        abortSignal: context.signal,
      });
      return found.LoadBalancers?.[0]?.LoadBalancerArn;
    },
  },
  'AWS::ElasticLoadBalancingV2::TargetGroup': {
    notFound: ['TargetGroupNotFound', 'TargetGroupNotFoundException'],
    holder: async (context: ProviderContext, name: string) => {
      const sdk = await import('@aws-sdk/client-elastic-load-balancing-v2');
      const client = await context.clients.client(sdk.ElasticLoadBalancingV2Client, context.region);
      const found = await client.send(new sdk.DescribeTargetGroupsCommand({ Names: [name] }), {
        abortSignal: context.signal,
      });
      return found.TargetGroups?.[0]?.TargetGroupArn;
    },
  },
} as const;

export function isElbv2Named(type: string): type is keyof typeof ELBV2_NAMED {
  return Object.hasOwn(ELBV2_NAMED, type);
}

/**
 * Spec 002, "Name collisions": ELBv2's CreateLoadBalancer and CreateTargetGroup return the
 * resource already holding the name when the settings match, and their Cloud Control identifier
 * is an ARN AWS assigns, so the name is looked up through ELBv2's own describe call by `Name`
 * as the create sends it (`sent`: the stack-name prefix of --prefix-user-supplied-names
 * already applied). Undefined when the template names none: a generated name is not looked up.
 */
export async function elbv2NameHolder(
  type: keyof typeof ELBV2_NAMED,
  sent: JsonObject,
  context: ProviderContext,
): Promise<NameLookup | undefined> {
  const name = sent.Name;
  if (typeof name !== 'string' || name === '') return undefined;
  const { holder, notFound } = ELBV2_NAMED[type];
  try {
    const arn = await holder(context, name);
    return arn ? { name, holder: arn } : { name };
  } catch (error) {
    if ((notFound as readonly string[]).includes(awsErrorCode(error) ?? '')) return { name };
    throw error;
  }
}

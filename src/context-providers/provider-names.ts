/** The context providers of @aws-cdk/cloud-assembly-schema cdkd answers (all but `plugin`: cdkd loads no CDK CLI plugins). */
export const CONTEXT_PROVIDER_NAMES = [
  'availability-zones',
  'hosted-zone',
  'vpc-provider',
  'ssm',
  'ami',
  'security-group',
  'load-balancer',
  'load-balancer-listener',
  'key-provider',
  'endpoint-service-availability-zones',
  'cc-api-provider',
] as const;

export type ContextProviderName = (typeof CONTEXT_PROVIDER_NAMES)[number];

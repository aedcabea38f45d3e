import type { ParameterValue } from './context.js';

export interface PseudoParameterInput {
  readonly accountId: string;
  readonly region: string;
  readonly stackName: string;
  /** Default: a synthetic ARN built from the other values (cdkd has no CloudFormation stack). */
  readonly stackId?: string;
  readonly partition?: string;
  readonly urlSuffix?: string;
  readonly notificationArns?: readonly string[];
}

/** Region prefix → partition and URL suffix; every other region is in the `aws` partition. */
const PARTITIONS: ReadonlyArray<readonly [prefix: string, partition: string, urlSuffix: string]> = [
  ['cn-', 'aws-cn', 'amazonaws.com.cn'],
  ['us-gov-', 'aws-us-gov', 'amazonaws.com'],
  ['us-isob-', 'aws-iso-b', 'sc2s.sgov.gov'],
  ['us-iso-', 'aws-iso', 'c2s.ic.gov'],
  ['eu-isoe-', 'aws-iso-e', 'cloud.adc-e.uk'],
  ['us-isof-', 'aws-iso-f', 'csp.hci.ic.gov'],
  ['eusc-', 'aws-eusc', 'amazonaws.eu'],
];

export function partitionForRegion(region: string): string {
  return PARTITIONS.find(([prefix]) => region.startsWith(prefix))?.[1] ?? 'aws';
}

export function urlSuffixForRegion(region: string): string {
  return PARTITIONS.find(([prefix]) => region.startsWith(prefix))?.[2] ?? 'amazonaws.com';
}

/** The pseudo-parameter table the evaluator reads (`AWS::NoValue` is handled there). */
export function buildPseudoParameters(input: PseudoParameterInput): Map<string, ParameterValue> {
  const partition = input.partition ?? partitionForRegion(input.region);
  const stackId =
    input.stackId ??
    `arn:${partition}:cloudformation:${input.region}:${input.accountId}:stack/${input.stackName}/cdkd`;
  return new Map<string, ParameterValue>([
    ['AWS::AccountId', input.accountId],
    ['AWS::Region', input.region],
    ['AWS::Partition', partition],
    ['AWS::URLSuffix', input.urlSuffix ?? urlSuffixForRegion(input.region)],
    ['AWS::StackName', input.stackName],
    ['AWS::StackId', stackId],
    ['AWS::NotificationARNs', input.notificationArns ?? []],
  ]);
}

import { EC2Client } from '@aws-sdk/client-ec2';
import type { AwsClients } from '../../aws/index.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { systemClock, type Clock } from '../clock.js';
import { readDistributionDomainName } from './cloudfront.js';
import {
  readDefaultSecurityGroup,
  readInstanceAttribute,
  readNetworkAclAttribute,
  readSecurityGroupVpc,
  readVpcIpv6Blocks,
} from './ec2.js';
import type { LiveAttributeAnswer, LiveAttributeReader, LiveAttributeRequest } from './port.js';

export type { LiveAttributeAnswer, LiveAttributeReader, LiveAttributeRequest } from './port.js';

interface ReadOptions {
  wait: boolean;
  signal?: AbortSignal;
}

type Read = (
  clients: AwsClients,
  request: LiveAttributeRequest,
  options: ReadOptions & { clock: Clock },
) => Promise<LiveAttributeAnswer>;

/** A VPC's default network ACL and a subnet's ACL association: one DescribeNetworkAcls read. */
const NETWORK_ACL_READ: { operation: string; read: Read } = {
  operation: 'ec2:DescribeNetworkAcls',
  read: async (clients, request, options) =>
    readNetworkAclAttribute(await clients.client(EC2Client, request.region), request, options.signal),
};

/**
 * Each type's read, and the call it makes (named in a refusal when it fails); `type.attribute`
 * where one type's attributes are read differently.
 */
const READS: Readonly<Record<string, { operation: string; read: Read }>> = {
  'AWS::EC2::Instance': {
    operation: 'ec2:DescribeInstances',
    read: async (clients, request, options) =>
      readInstanceAttribute(await clients.client(EC2Client, request.region), request, options),
  },
  'AWS::EC2::VPC': {
    operation: 'ec2:DescribeSecurityGroups',
    read: async (clients, request, options) =>
      readDefaultSecurityGroup(await clients.client(EC2Client, request.region), request, options.signal),
  },
  'AWS::EC2::VPC.Ipv6CidrBlocks': {
    operation: 'ec2:DescribeVpcs',
    read: async (clients, request, options) =>
      readVpcIpv6Blocks(await clients.client(EC2Client, request.region), request, options),
  },
  'AWS::EC2::VPC.DefaultNetworkAcl': NETWORK_ACL_READ,
  'AWS::EC2::Subnet': NETWORK_ACL_READ,
  'AWS::EC2::SecurityGroup': {
    operation: 'ec2:DescribeSecurityGroups',
    read: async (clients, request, options) =>
      readSecurityGroupVpc(await clients.client(EC2Client, request.region), request, options.signal),
  },
  'AWS::CloudFront::Distribution': {
    operation: 'cloudfront:GetDistribution',
    read: readDistributionDomainName,
  },
};

/**
 * Reads the attributes spec 002 reads live, through the service's own API. Each call goes
 * through `retry` (throttling and outages); any other failure is answered, never thrown.
 */
export function liveAttributeReader(deps: {
  clients: AwsClients;
  retry<T>(label: string, call: () => Promise<T>): Promise<T>;
  clock?: Clock;
}): LiveAttributeReader {
  const clock = deps.clock ?? systemClock;
  return {
    async read(request, options) {
      const entry = READS[`${request.type}.${request.attribute}`] ?? READS[request.type];
      if (!entry) throw new Error(`no live read for ${request.type}`);
      try {
        return await deps.retry(`${request.logicalId}.${request.attribute}`, () =>
          entry.read(deps.clients, request, { ...options, clock }),
        );
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return {
          kind: 'failed',
          operation: entry.operation,
          errorClass: awsErrorCode(error) ?? (error instanceof Error ? error.name : 'Error'),
          cause: error,
        };
      }
    },
  };
}

import type { ResourceModel } from '../../resources.js';
import { ipv6BlockOf, ipv6BlocksOf } from '../ec2/network.js';

/** The region's models of a type, from the store the read is answered from. */
export type RelatedModels = (type: string) => ResourceModel[];

/**
 * Read-only values a model cannot keep from its creation, since other resources change them
 * later: answered afresh at each read, as AWS's read handlers answer them.
 */
const DERIVED: Readonly<Record<string, (model: ResourceModel, related: RelatedModels) => ResourceModel>> = {
  // A VPC gains IPv6 blocks only through its VPCCidrBlocks, made after it; an IPv4-only VPC has none.
  'AWS::EC2::VPC': (model, related) => ({
    ...model,
    Ipv6CidrBlocks: ipv6BlocksOf(String(model.VpcId), related('AWS::EC2::VPCCidrBlock')).map(
      (block) => block.cidrBlock,
    ),
  }),
  // The block an IPv6 association holds, the one its VPC lists.
  'AWS::EC2::VPCCidrBlock': (model) => {
    const block = ipv6BlockOf(model);
    return block ? { ...model, Ipv6CidrBlock: block.cidrBlock } : model;
  },
  // A subnet's IPv6 blocks are the /64 it was given, if any.
  'AWS::EC2::Subnet': (model) => ({
    ...model,
    Ipv6CidrBlocks: typeof model.Ipv6CidrBlock === 'string' ? [model.Ipv6CidrBlock] : [],
  }),
};

/** The model as a read answers it: its stored values and those derived from related resources. */
export function withDerivedAttributes(
  type: string,
  model: ResourceModel,
  related: RelatedModels,
): ResourceModel {
  return DERIVED[type]?.(model, related) ?? model;
}

/** Whether reads of `type` answer values other resources determine (so are read afresh, not kept). */
export function hasDerivedAttributes(type: string): boolean {
  return Object.hasOwn(DERIVED, type);
}

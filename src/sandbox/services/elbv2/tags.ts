import type { SandboxResponse } from '../../request.js';
import { validation } from './params.js';
import {
  byArn,
  type Elbv2Call,
  errors,
  LISTENER,
  list,
  LOAD_BALANCER,
  result,
  RULE,
  TARGET_GROUP,
  write,
} from './call.js';

/** The type an ELBv2 ARN names, and the error ELB answers when none holds it. */
function typeOf(arn: string) {
  if (arn.includes(':loadbalancer/')) return { type: LOAD_BALANCER, missing: errors.loadBalancerNotFound };
  if (arn.includes(':targetgroup/')) return { type: TARGET_GROUP, missing: errors.targetGroupNotFound };
  if (arn.includes(':listener-rule/')) return { type: RULE, missing: errors.ruleNotFound };
  if (arn.includes(':listener/')) return { type: LISTENER, missing: errors.listenerNotFound };
  throw validation(`'${arn}' is not a valid load balancer, target group, listener or rule ARN`);
}

function tagged(call: Elbv2Call, arn: string) {
  const { type, missing } = typeOf(arn);
  const entry = byArn(call, type, arn, missing);
  const tags = Array.isArray(entry.model.Tags)
    ? (entry.model.Tags as Array<{ Key: string; Value: string }>)
    : [];
  return { type, entry, tags };
}

export async function addTags(call: Elbv2Call): Promise<SandboxResponse> {
  const added = list(call.input.Tags) as Array<{ Key?: string; Value?: string }>;
  if (added.length === 0) throw validation('Tags must not be empty');
  for (const arn of list(call.input.ResourceArns).map(String)) {
    const { type, entry, tags } = tagged(call, arn);
    const next = [
      ...tags.filter((tag) => !added.some((t) => t.Key === tag.Key)),
      ...added.map((tag) => ({ Key: String(tag.Key), Value: String(tag.Value ?? '') })),
    ];
    await write(call, type, entry, { ...entry.model, Tags: next });
  }
  return result(call, 'AddTags');
}

export async function removeTags(call: Elbv2Call): Promise<SandboxResponse> {
  const keys = list(call.input.TagKeys).map(String);
  for (const arn of list(call.input.ResourceArns).map(String)) {
    const { type, entry, tags } = tagged(call, arn);
    const next = tags.filter((tag) => !keys.includes(tag.Key));
    await write(call, type, entry, { ...entry.model, Tags: next.length > 0 ? next : undefined });
  }
  return result(call, 'RemoveTags');
}

export function describeTags(call: Elbv2Call): SandboxResponse {
  const descriptions = list(call.input.ResourceArns)
    .map(String)
    .map((arn) => ({ ResourceArn: arn, Tags: tagged(call, arn).tags }));
  return result(call, 'DescribeTags', { TagDescriptions: descriptions });
}

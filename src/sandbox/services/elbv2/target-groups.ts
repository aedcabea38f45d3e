import { SandboxError } from '../../errors.js';
import type { SandboxResponse } from '../../request.js';
import type { ResourceModel } from '../../resources.js';
import { attributeList, requiredText, validation } from './params.js';
import {
  byArn,
  type Elbv2Call,
  entries,
  errors,
  LISTENER,
  list,
  modelTags,
  result,
  RULE,
  store,
  TARGET_GROUP,
  write,
} from './call.js';

/** What CreateTargetGroup takes besides Name and Tags (the template's names). */
const SETTINGS = [
  'Protocol',
  'ProtocolVersion',
  'Port',
  'VpcId',
  'HealthCheckProtocol',
  'HealthCheckPort',
  'HealthCheckEnabled',
  'HealthCheckPath',
  'HealthCheckIntervalSeconds',
  'HealthCheckTimeoutSeconds',
  'HealthyThresholdCount',
  'UnhealthyThresholdCount',
  'Matcher',
  'TargetType',
  'IpAddressType',
];
/** What ModifyTargetGroup changes. */
const HEALTH_CHECK = SETTINGS.filter(
  (key) => key.startsWith('Health') || key === 'UnhealthyThresholdCount' || key === 'Matcher',
);
/** What a create compares with the group already holding the name. */
const IDENTITY = ['Protocol', 'Port', 'VpcId', 'TargetType'];

const DEFAULT_ATTRIBUTES: Record<string, string> = {
  'deregistration_delay.timeout_seconds': '300',
  'stickiness.enabled': 'false',
  'stickiness.type': 'lb_cookie',
  'load_balancing.algorithm.type': 'round_robin',
  'slow_start.duration_seconds': '0',
};

export async function createTargetGroup(call: Elbv2Call): Promise<SandboxResponse> {
  const name = requiredText(call.input, 'Name');
  if (name.length > 32 || !/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(name)) {
    throw validation(
      `Target group name '${name}' can have a maximum of 32 characters, only alphanumerics and hyphens, and cannot begin or end with a hyphen`,
    );
  }
  const targetType = call.input.TargetType ?? 'instance';
  if (
    targetType !== 'lambda' &&
    (call.input.Protocol === undefined || call.input.Port === undefined || call.input.VpcId === undefined)
  ) {
    throw validation(`A protocol, port and VPC ID must be specified for target type '${String(targetType)}'`);
  }
  const desired: ResourceModel = { Name: name, TargetType: targetType };
  for (const key of SETTINGS) if (call.input[key] !== undefined) desired[key] ??= call.input[key];
  const tags = modelTags(call.input.Tags);
  if (tags) desired.Tags = tags;
  const holder = entries(call, TARGET_GROUP).find(
    (entry) => (entry.model.Name ?? entry.model.TargetGroupName) === name,
  );
  if (holder) {
    if (IDENTITY.some((key) => JSON.stringify(holder.model[key]) !== JSON.stringify(desired[key]))) {
      throw new SandboxError(
        'DuplicateTargetGroupName',
        'A target group with the same name exists, but with different settings',
        400,
      );
    }
    return result(call, 'CreateTargetGroup', { TargetGroups: [renderTargetGroup(call, holder.model)] });
  }
  const made = await store(call, TARGET_GROUP).create(desired, call.request.region, call.request.accountId);
  return result(call, 'CreateTargetGroup', { TargetGroups: [renderTargetGroup(call, made.model)] });
}

/** A group a listener or rule forwards to is in use, as ELB refuses; one already gone is deleted. */
export async function deleteTargetGroup(call: Elbv2Call): Promise<SandboxResponse> {
  const arn = requiredText(call.input, 'TargetGroupArn');
  const { region, accountId } = call.request;
  if (!store(call, TARGET_GROUP).read(arn, region, accountId)) return result(call, 'DeleteTargetGroup');
  if (loadBalancersOf(call, arn).length > 0) {
    throw new SandboxError(
      'ResourceInUse',
      `Target group '${arn}' is currently in use by a listener or a rule`,
      400,
    );
  }
  await store(call, TARGET_GROUP).delete(arn, region, accountId);
  return result(call, 'DeleteTargetGroup');
}

export async function modifyTargetGroup(call: Elbv2Call): Promise<SandboxResponse> {
  const entry = byArn(call, TARGET_GROUP, call.input.TargetGroupArn, errors.targetGroupNotFound);
  const changes = Object.fromEntries(
    HEALTH_CHECK.filter((key) => call.input[key] !== undefined).map((key) => [key, call.input[key]]),
  );
  const model = await write(call, TARGET_GROUP, entry, { ...entry.model, ...changes });
  return result(call, 'ModifyTargetGroup', { TargetGroups: [renderTargetGroup(call, model)] });
}

export function describeTargetGroupAttributes(call: Elbv2Call): SandboxResponse {
  const entry = byArn(call, TARGET_GROUP, call.input.TargetGroupArn, errors.targetGroupNotFound);
  return result(call, 'DescribeTargetGroupAttributes', {
    Attributes: attributeList(attributesOf(entry.model)),
  });
}

export async function modifyTargetGroupAttributes(call: Elbv2Call): Promise<SandboxResponse> {
  const entry = byArn(call, TARGET_GROUP, call.input.TargetGroupArn, errors.targetGroupNotFound);
  const changes = list(call.input.Attributes) as Array<{ Key?: string; Value?: string }>;
  if (changes.length === 0) throw validation('Attributes must not be empty');
  const set = Object.fromEntries(
    givenAttributes(entry.model).map((attribute) => [attribute.Key, attribute.Value]),
  );
  for (const change of changes) set[String(change.Key)] = String(change.Value ?? '');
  const model = await write(call, TARGET_GROUP, entry, {
    ...entry.model,
    TargetGroupAttributes: attributeList(set),
  });
  return result(call, 'ModifyTargetGroupAttributes', { Attributes: attributeList(attributesOf(model)) });
}

/** The load balancers whose listeners or rules forward to the group (ELB's LoadBalancerArns). */
export function loadBalancersOf(call: Elbv2Call, targetGroupArn: string): string[] {
  const listeners = entries(call, LISTENER);
  const balancers = new Set<string>();
  for (const listener of listeners) {
    if (forwardsTo(listener.model.DefaultActions, targetGroupArn))
      balancers.add(String(listener.model.LoadBalancerArn));
  }
  for (const rule of entries(call, RULE)) {
    if (!forwardsTo(rule.model.Actions, targetGroupArn)) continue;
    const listener = listeners.find((candidate) => candidate.identifier === rule.model.ListenerArn);
    if (listener) balancers.add(String(listener.model.LoadBalancerArn));
  }
  return [...balancers];
}

function forwardsTo(actions: unknown, targetGroupArn: string): boolean {
  return (
    list(actions) as Array<{
      TargetGroupArn?: string;
      ForwardConfig?: { TargetGroups?: Array<{ TargetGroupArn?: string }> };
    }>
  ).some(
    (action) =>
      action.TargetGroupArn === targetGroupArn ||
      (action.ForwardConfig?.TargetGroups ?? []).some((group) => group.TargetGroupArn === targetGroupArn),
  );
}

export function renderTargetGroup(call: Elbv2Call, model: ResourceModel): Record<string, unknown> {
  const arn = String(model.TargetGroupArn);
  const out: Record<string, unknown> = {
    TargetGroupArn: arn,
    TargetGroupName: String(model.Name ?? model.TargetGroupName),
  };
  for (const key of SETTINGS) if (model[key] !== undefined) out[key] = model[key];
  out.TargetType = model.TargetType ?? 'instance';
  out.LoadBalancerArns = loadBalancersOf(call, arn);
  return out;
}

function givenAttributes(model: ResourceModel): Array<{ Key: string; Value: string }> {
  return Array.isArray(model.TargetGroupAttributes)
    ? (model.TargetGroupAttributes as Array<{ Key: string; Value: string }>)
    : [];
}

function attributesOf(model: ResourceModel): Record<string, string> {
  return {
    ...DEFAULT_ATTRIBUTES,
    ...Object.fromEntries(givenAttributes(model).map((attribute) => [attribute.Key, attribute.Value])),
  };
}

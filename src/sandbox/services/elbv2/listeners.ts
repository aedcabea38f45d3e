import { SandboxError } from '../../errors.js';
import type { SandboxResponse } from '../../request.js';
import type { ResourceModel } from '../../resources.js';
import { requiredText, validation } from './params.js';
import {
  byArn,
  type Elbv2Call,
  entries,
  errors,
  LISTENER,
  list,
  LOAD_BALANCER,
  modelTags,
  result,
  RULE,
  store,
  TARGET_GROUP,
  write,
} from './call.js';

const LISTENER_SETTINGS = [
  'Port',
  'Protocol',
  'DefaultActions',
  'Certificates',
  'SslPolicy',
  'AlpnPolicy',
  'MutualAuthentication',
];

/** Every target group an action list forwards to must exist, as ELB checks. */
function requireTargetGroups(call: Elbv2Call, actions: unknown): void {
  for (const action of list(actions) as Array<{
    TargetGroupArn?: string;
    ForwardConfig?: { TargetGroups?: Array<{ TargetGroupArn?: string }> };
  }>) {
    const arns = [
      action.TargetGroupArn,
      ...(action.ForwardConfig?.TargetGroups ?? []).map((group) => group.TargetGroupArn),
    ];
    for (const arn of arns) if (arn !== undefined) byArn(call, TARGET_GROUP, arn, errors.targetGroupNotFound);
  }
}

export async function createListener(call: Elbv2Call): Promise<SandboxResponse> {
  const balancer = byArn(
    call,
    LOAD_BALANCER,
    requiredText(call.input, 'LoadBalancerArn'),
    errors.loadBalancerNotFound,
  );
  const actions = list(call.input.DefaultActions);
  if (actions.length === 0) throw validation('A default action must be specified');
  requireTargetGroups(call, actions);
  const port = call.input.Port;
  if (
    entries(call, LISTENER).some(
      (entry) => entry.model.LoadBalancerArn === balancer.identifier && entry.model.Port === port,
    )
  ) {
    throw new SandboxError(
      'DuplicateListener',
      'A listener already exists on this port for this load balancer',
      400,
    );
  }
  const desired: ResourceModel = { LoadBalancerArn: balancer.identifier };
  for (const key of LISTENER_SETTINGS) if (call.input[key] !== undefined) desired[key] = call.input[key];
  const tags = modelTags(call.input.Tags);
  if (tags) desired.Tags = tags;
  const made = await store(call, LISTENER).create(desired, call.request.region, call.request.accountId);
  return result(call, 'CreateListener', { Listeners: [renderListener(made.model)] });
}

export async function modifyListener(call: Elbv2Call): Promise<SandboxResponse> {
  const entry = byArn(call, LISTENER, call.input.ListenerArn, errors.listenerNotFound);
  if (call.input.DefaultActions !== undefined) requireTargetGroups(call, call.input.DefaultActions);
  const changes = Object.fromEntries(
    LISTENER_SETTINGS.filter((key) => call.input[key] !== undefined).map((key) => [key, call.input[key]]),
  );
  const model = await write(call, LISTENER, entry, { ...entry.model, ...changes });
  return result(call, 'ModifyListener', { Listeners: [renderListener(model)] });
}

/** A listener goes with its rules. */
export async function deleteListener(call: Elbv2Call): Promise<SandboxResponse> {
  const entry = byArn(call, LISTENER, call.input.ListenerArn, errors.listenerNotFound);
  const { region, accountId } = call.request;
  for (const rule of entries(call, RULE).filter(
    (candidate) => candidate.model.ListenerArn === entry.identifier,
  )) {
    await store(call, RULE).delete(rule.identifier, region, accountId);
  }
  await store(call, LISTENER).delete(entry.identifier, region, accountId);
  return result(call, 'DeleteListener');
}

export function renderListener(model: ResourceModel): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ListenerArn: model.ListenerArn,
    LoadBalancerArn: model.LoadBalancerArn,
  };
  for (const key of LISTENER_SETTINGS) if (model[key] !== undefined) out[key] = model[key];
  return out;
}

export async function createRule(call: Elbv2Call): Promise<SandboxResponse> {
  const listener = byArn(call, LISTENER, requiredText(call.input, 'ListenerArn'), errors.listenerNotFound);
  const priority = call.input.Priority;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 1 || priority > 50000) {
    throw validation('Priority must be an integer between 1 and 50000');
  }
  if (list(call.input.Conditions).length === 0) throw validation('A rule must have at least one condition');
  if (list(call.input.Actions).length === 0) throw validation('A rule must have at least one action');
  requireTargetGroups(call, call.input.Actions);
  refuseTakenPriority(call, listener.identifier, priority);
  const desired: ResourceModel = {
    ListenerArn: listener.identifier,
    Priority: priority,
    Conditions: call.input.Conditions,
    Actions: call.input.Actions,
    ...(modelTags(call.input.Tags) && { Tags: modelTags(call.input.Tags) }),
  };
  const made = await store(call, RULE).create(desired, call.request.region, call.request.accountId);
  return result(call, 'CreateRule', { Rules: [renderRule(made.model)] });
}

export async function modifyRule(call: Elbv2Call): Promise<SandboxResponse> {
  const entry = byArn(call, RULE, call.input.RuleArn, errors.ruleNotFound);
  if (call.input.Actions !== undefined) requireTargetGroups(call, call.input.Actions);
  const changes = Object.fromEntries(
    ['Conditions', 'Actions']
      .filter((key) => call.input[key] !== undefined)
      .map((key) => [key, call.input[key]]),
  );
  const model = await write(call, RULE, entry, { ...entry.model, ...changes });
  return result(call, 'ModifyRule', { Rules: [renderRule(model)] });
}

export async function setRulePriorities(call: Elbv2Call): Promise<SandboxResponse> {
  const wanted = list(call.input.RulePriorities) as Array<{ RuleArn?: string; Priority?: number }>;
  const moved = wanted.map((item) => ({
    entry: byArn(call, RULE, item.RuleArn, errors.ruleNotFound),
    priority: Number(item.Priority),
  }));
  for (const { entry, priority } of moved) {
    const others = entries(call, RULE).filter(
      (rule) =>
        rule.model.ListenerArn === entry.model.ListenerArn &&
        !moved.some((item) => item.entry.identifier === rule.identifier),
    );
    if (others.some((rule) => rule.model.Priority === priority)) throw priorityInUse(priority);
  }
  const rules = [];
  for (const { entry, priority } of moved)
    rules.push(renderRule(await write(call, RULE, entry, { ...entry.model, Priority: priority })));
  return result(call, 'SetRulePriorities', { Rules: rules });
}

export async function deleteRule(call: Elbv2Call): Promise<SandboxResponse> {
  const entry = byArn(call, RULE, call.input.RuleArn, errors.ruleNotFound);
  await store(call, RULE).delete(entry.identifier, call.request.region, call.request.accountId);
  return result(call, 'DeleteRule');
}

export function describeRules(call: Elbv2Call): SandboxResponse {
  const arns = list(call.input.RuleArns).map(String);
  const listenerArn = call.input.ListenerArn;
  if (listenerArn !== undefined) byArn(call, LISTENER, listenerArn, errors.listenerNotFound);
  for (const arn of arns) byArn(call, RULE, arn, errors.ruleNotFound);
  const rules = entries(call, RULE)
    .filter(
      (entry) =>
        (arns.length === 0 || arns.includes(entry.identifier)) &&
        (listenerArn === undefined || entry.model.ListenerArn === listenerArn),
    )
    .map((entry) => renderRule(entry.model));
  return result(call, 'DescribeRules', { Rules: rules });
}

function refuseTakenPriority(call: Elbv2Call, listenerArn: string, priority: number): void {
  if (
    entries(call, RULE).some(
      (rule) => rule.model.ListenerArn === listenerArn && rule.model.Priority === priority,
    )
  ) {
    throw priorityInUse(priority);
  }
}

const priorityInUse = (priority: number) =>
  new SandboxError('PriorityInUse', `Priority '${priority}' is currently in use`, 400);

function renderRule(model: ResourceModel): Record<string, unknown> {
  return {
    RuleArn: model.RuleArn,
    Priority: String(model.Priority),
    Conditions: model.Conditions,
    Actions: model.Actions,
    IsDefault: false,
  };
}

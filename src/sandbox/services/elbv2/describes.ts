import type { SandboxResponse } from '../../request.js';
import {
  byArn,
  type Elbv2Call,
  entries,
  errors,
  LISTENER,
  list,
  LOAD_BALANCER,
  result,
  TARGET_GROUP,
} from './call.js';
import { renderListener } from './listeners.js';
import { render } from './load-balancers.js';
import { loadBalancersOf, renderTargetGroup } from './target-groups.js';

/** As ELB does: an ARN or a name nothing holds fails the whole call. */
export function describeLoadBalancers(call: Elbv2Call): SandboxResponse {
  const arns = list(call.input.LoadBalancerArns).map(String);
  const names = list(call.input.Names).map(String);
  const balancers = entries(call, LOAD_BALANCER);
  for (const arn of arns) byArn(call, LOAD_BALANCER, arn, errors.loadBalancerNotFound);
  const nameOf = (model: Record<string, unknown>) => String(model.LoadBalancerName ?? model.Name);
  for (const name of names) {
    if (!balancers.some((entry) => nameOf(entry.model) === name)) throw errors.loadBalancerNotFound();
  }
  const selected = balancers.filter(
    (entry) =>
      (arns.length === 0 || arns.includes(entry.identifier)) &&
      (names.length === 0 || names.includes(nameOf(entry.model))),
  );
  return result(call, 'DescribeLoadBalancers', {
    LoadBalancers: selected.map((entry) => render(call, entry.model)),
  });
}

export function describeTargetGroups(call: Elbv2Call): SandboxResponse {
  const arns = list(call.input.TargetGroupArns).map(String);
  const names = list(call.input.Names).map(String);
  const balancerArn = call.input.LoadBalancerArn;
  if (balancerArn !== undefined) byArn(call, LOAD_BALANCER, balancerArn, errors.loadBalancerNotFound);
  const groups = entries(call, TARGET_GROUP);
  const nameOf = (model: Record<string, unknown>) => String(model.TargetGroupName ?? model.Name);
  for (const arn of arns) byArn(call, TARGET_GROUP, arn, errors.targetGroupNotFound);
  for (const name of names) {
    if (!groups.some((entry) => nameOf(entry.model) === name)) throw errors.targetGroupNotFound();
  }
  const selected = groups.filter(
    (entry) =>
      (arns.length === 0 || arns.includes(entry.identifier)) &&
      (names.length === 0 || names.includes(nameOf(entry.model))) &&
      (balancerArn === undefined || loadBalancersOf(call, entry.identifier).includes(String(balancerArn))),
  );
  return result(call, 'DescribeTargetGroups', {
    TargetGroups: selected.map((entry) => renderTargetGroup(call, entry.model)),
  });
}

export function describeListeners(call: Elbv2Call): SandboxResponse {
  const arns = list(call.input.ListenerArns).map(String);
  const balancerArn = call.input.LoadBalancerArn;
  if (balancerArn !== undefined) byArn(call, LOAD_BALANCER, balancerArn, errors.loadBalancerNotFound);
  for (const arn of arns) byArn(call, LISTENER, arn, errors.listenerNotFound);
  const selected = entries(call, LISTENER).filter(
    (entry) =>
      (arns.length === 0 || arns.includes(entry.identifier)) &&
      (balancerArn === undefined || entry.model.LoadBalancerArn === balancerArn),
  );
  return result(call, 'DescribeListeners', {
    Listeners: selected.map((entry) => renderListener(entry.model)),
  });
}

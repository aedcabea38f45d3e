import { SandboxError } from '../../errors.js';
import { queryResult } from '../../protocols/query.js';
import type { SandboxRequest, SandboxResponse } from '../../request.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import type { ResourceEntry, ResourceHandler, ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import { xmlOf } from './params.js';

export const LOAD_BALANCER = 'AWS::ElasticLoadBalancingV2::LoadBalancer';
export const TARGET_GROUP = 'AWS::ElasticLoadBalancingV2::TargetGroup';
export const LISTENER = 'AWS::ElasticLoadBalancingV2::Listener';
export const RULE = 'AWS::ElasticLoadBalancingV2::ListenerRule';

const XMLNS = 'http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/';

/** When each load balancer made through ELBv2 turns from provisioning to active (in memory: after a restart all are active). */
export type ActiveTimes = Map<string, number>;

/** One ELBv2 call: its parameters as an object, and the stores of the four types. */
export interface Elbv2Call {
  request: SandboxRequest;
  params: URLSearchParams;
  input: Record<string, unknown>;
  context: SandboxContext;
  activeAt: ActiveTimes;
}

export function store(call: Elbv2Call, type: string): ResourceHandler {
  return call.context.resources.resolve(type)!;
}

export function entries(call: Elbv2Call, type: string): ResourceEntry[] {
  return store(call, type).list(call.request.region, call.request.accountId);
}

/** The entry whose identifier (its ARN) is `arn`; the given error when none. */
export function byArn(
  call: Elbv2Call,
  type: string,
  arn: unknown,
  missing: () => SandboxError,
): ResourceEntry {
  const model =
    typeof arn === 'string'
      ? store(call, type).read(arn, call.request.region, call.request.accountId)
      : undefined;
  if (!model) throw missing();
  return { identifier: String(arn), model };
}

/** Writes the model back through the store's update, which keeps the read-only values. */
export async function write(
  call: Elbv2Call,
  type: string,
  entry: ResourceEntry,
  model: ResourceModel,
): Promise<ResourceModel> {
  const writable = new Set(sandboxSchemaFor(type)!.props);
  const desired = Object.fromEntries(
    Object.entries(model).filter(([key, value]) => writable.has(key) && value !== undefined),
  );
  return store(call, type).update(entry.identifier, desired, call.request.region, call.request.accountId);
}

export function result(
  call: Elbv2Call,
  action: string,
  members: Record<string, unknown> = {},
): SandboxResponse {
  return queryResult(
    action,
    XMLNS,
    Object.entries(members).map(([name, value]) => xmlOf(name, value)),
    call.request,
  );
}

export const notFound = (code: string, what: string) => () =>
  new SandboxError(code, `One or more ${what} not found`, 400);
export const errors = {
  loadBalancerNotFound: notFound('LoadBalancerNotFound', 'load balancers'),
  targetGroupNotFound: notFound('TargetGroupNotFound', 'target groups'),
  listenerNotFound: notFound('ListenerNotFound', 'listeners'),
  ruleNotFound: notFound('RuleNotFound', 'rules'),
};

/** Tags as the template (and the store) keeps them: `[{Key, Value}]`, undefined when none. */
export function modelTags(value: unknown): Array<{ Key: string; Value: string }> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return (value as Array<{ Key?: string; Value?: string }>).map((tag) => ({
    Key: String(tag.Key ?? ''),
    Value: String(tag.Value ?? ''),
  }));
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

import type { StackArtifact } from '../../assembly/index.js';
import { functionIn, refOf, resourcesOf, type Resources } from '../serve/template-refs.js';

/** What an ALB listener or rule does with a request, as far as it runs locally. */
export type AlbAction =
  | { type: 'forward'; targetGroup: string; functionId?: string; multiValueHeaders: boolean }
  | { type: 'fixed-response'; status: number; contentType?: string; body?: string }
  | { type: 'unsupported'; what: string };

export interface AlbCondition {
  field: string;
  values: string[];
  /** `http-header`'s header name. */
  name?: string;
  /** `query-string`'s key/value pairs (a missing key matches any key). */
  pairs?: Array<{ key?: string; value: string }>;
}

export interface AlbRule {
  priority: number;
  conditions: AlbCondition[];
  action: AlbAction;
}

export interface LocalListener {
  logicalId: string;
  port: number;
  rules: AlbRule[];
  defaultAction: AlbAction;
}

const LISTENER = 'AWS::ElasticLoadBalancingV2::Listener';

export function hasListener(stack: StackArtifact): boolean {
  return Object.values(resourcesOf(stack.template)).some((resource) => resource.Type === LISTENER);
}

/** The stack's Application Load Balancer listeners with their rules, in priority order. */
export function localListeners(stack: StackArtifact): LocalListener[] {
  const resources = resourcesOf(stack.template);
  return Object.entries(resources)
    .filter(([, resource]) => resource.Type === LISTENER)
    .map(([logicalId, resource]) => {
      const properties = resource.Properties ?? {};
      const rules = Object.values(resources)
        .filter(
          (rule) =>
            rule.Type === 'AWS::ElasticLoadBalancingV2::ListenerRule' &&
            refOf(rule.Properties?.ListenerArn) === logicalId,
        )
        .map((rule) => ({
          priority: Number(rule.Properties?.Priority ?? 0),
          conditions: list(rule.Properties?.Conditions).map(condition),
          action: firstAction(rule.Properties?.Actions, resources),
        }))
        .sort((a, b) => a.priority - b.priority);
      return {
        logicalId,
        port: Number(properties.Port ?? 80),
        rules,
        defaultAction: firstAction(properties.DefaultActions, resources),
      };
    });
}

/** Every function the listeners forward to. */
export function albFunctions(listeners: readonly LocalListener[]): string[] {
  const ids = listeners
    .flatMap((listener) => [listener.defaultAction, ...listener.rules.map((rule) => rule.action)])
    .map((action) => (action.type === 'forward' ? action.functionId : undefined))
    .filter((id): id is string => id !== undefined);
  return [...new Set(ids)];
}

function condition(raw: Record<string, unknown>): AlbCondition {
  const field = String(raw.Field ?? '');
  const config = (key: string) => (raw[key] ?? {}) as Record<string, unknown>;
  const values = (from: unknown) => (Array.isArray(from) ? from.map(String) : []);
  switch (field) {
    case 'path-pattern':
      return { field, values: values(config('PathPatternConfig').Values ?? raw.Values) };
    case 'host-header':
      return { field, values: values(config('HostHeaderConfig').Values ?? raw.Values) };
    case 'http-request-method':
      return { field, values: values(config('HttpRequestMethodConfig').Values ?? raw.Values) };
    case 'http-header':
      return {
        field,
        name: String(config('HttpHeaderConfig').HttpHeaderName ?? ''),
        values: values(config('HttpHeaderConfig').Values),
      };
    case 'query-string':
      return {
        field,
        values: [],
        pairs: list(config('QueryStringConfig').Values).map((pair) => ({
          ...(pair.Key !== undefined ? { key: String(pair.Key) } : {}),
          value: String(pair.Value ?? ''),
        })),
      };
    default:
      return { field, values: values(raw.Values) };
  }
}

function firstAction(actions: unknown, resources: Resources): AlbAction {
  const sorted = list(actions).sort((a, b) => Number(a.Order ?? 0) - Number(b.Order ?? 0));
  const action = sorted.find(
    (candidate) => candidate.Type !== 'authenticate-oidc' && candidate.Type !== 'authenticate-cognito',
  );
  if (!action) return { type: 'unsupported', what: 'a listener without an action' };
  if (action.Type === 'fixed-response') {
    const config = (action.FixedResponseConfig ?? {}) as Record<string, unknown>;
    return {
      type: 'fixed-response',
      status: Number(config.StatusCode ?? 200),
      ...(typeof config.ContentType === 'string' ? { contentType: config.ContentType } : {}),
      ...(typeof config.MessageBody === 'string' ? { body: config.MessageBody } : {}),
    };
  }
  if (action.Type === 'forward') {
    const target =
      refOf(action.TargetGroupArn) ??
      refOf(
        list((action.ForwardConfig as Record<string, unknown> | undefined)?.TargetGroups)[0]?.TargetGroupArn,
      );
    const group = target ? resources[target] : undefined;
    if (!target || group?.Type !== 'AWS::ElasticLoadBalancingV2::TargetGroup')
      return { type: 'unsupported', what: 'a forward to a target group outside this stack' };
    if (group.Properties?.TargetType !== 'lambda')
      return {
        type: 'unsupported',
        what: `a ${String(group.Properties?.TargetType ?? 'instance')} target group`,
      };
    const functionId = functionIn(list(group.Properties?.Targets)[0]?.Id, resources);
    const attributes = list(group.Properties?.TargetGroupAttributes);
    return {
      type: 'forward',
      targetGroup: target,
      ...(functionId ? { functionId } : {}),
      multiValueHeaders: attributes.some(
        (attribute) =>
          attribute.Key === 'lambda.multi_value_headers.enabled' && String(attribute.Value) === 'true',
      ),
    };
  }
  return { type: 'unsupported', what: `${String(action.Type)} actions` };
}

function list(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value)
    ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : [];
}

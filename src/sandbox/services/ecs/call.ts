import { sandboxSchemaFor } from '../../resource-index.js';
import type { ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import type { ApiCall } from '../api-module.js';
import { ecsErrors } from './errors.js';

export const CLUSTER_TYPE = 'AWS::ECS::Cluster';
export const TASK_DEFINITION_TYPE = 'AWS::ECS::TaskDefinition';
export const SERVICE_TYPE = 'AWS::ECS::Service';

/** `arn:aws:ecs:<region>:<account>:cluster/<name>` or the bare name → the name. */
export function clusterName(named: unknown): string {
  return String(named ?? 'default').replace(/^arn:[^:]+:ecs:[^:]+:\d{12}:cluster\//, '');
}

export function clusterArn(call: ApiCall, name: string): string {
  return `arn:aws:ecs:${call.region}:${call.accountId}:cluster/${name}`;
}

export function handlerOf(context: SandboxContext, type: string) {
  return context.resources.resolve(type)!;
}

/** The cluster the call names (`cluster`, default `default`); ClusterNotFoundException when none. */
export function requireCluster(context: SandboxContext, call: ApiCall): string {
  const name = clusterName(call.input.cluster);
  if (!handlerOf(context, CLUSTER_TYPE).read(name, call.region, call.accountId))
    throw ecsErrors.clusterNotFound();
  return name;
}

export function stringMember(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** ECS's tags (`{key, value}`) as Cloud Control's model keeps them. */
export function modelTags(tags: unknown): Array<{ Key: string; Value: string }> | undefined {
  if (!Array.isArray(tags) || tags.length === 0) return undefined;
  return (tags as Array<{ key?: string; value?: string }>).map((tag) => ({
    Key: String(tag.key ?? ''),
    Value: String(tag.value ?? ''),
  }));
}

export function apiTags(tags: unknown): Array<{ key: string; value: string }> {
  return Array.isArray(tags)
    ? (tags as Array<{ Key: string; Value: string }>).map((tag) => ({ key: tag.Key, value: tag.Value }))
    : [];
}

/** The model's writable properties: what the store's update takes (it keeps the read-only ones). */
export function writableOf(type: string, model: ResourceModel): ResourceModel {
  const writable = new Set(sandboxSchemaFor(type)!.props);
  return Object.fromEntries(Object.entries(model).filter(([key]) => writable.has(key)));
}

/** The model without the named properties. */
export function omit(model: ResourceModel, names: readonly string[]): ResourceModel {
  return Object.fromEntries(Object.entries(model).filter(([key]) => !names.includes(key)));
}

import { SandboxError } from '../../errors.js';
import type { ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import type { ApiCall } from '../api-module.js';
import {
  apiTags,
  CLUSTER_TYPE,
  clusterName,
  handlerOf,
  SERVICE_TYPE,
  stringMember,
  TASK_DEFINITION_TYPE,
  writableOf,
} from './call.js';
import { ecsErrors } from './errors.js';

/** TagResource, UntagResource and ListTagsForResource on clusters, task definitions and services by ARN. */
export function tagHandlers(context: SandboxContext) {
  const locate = (call: ApiCall) => {
    const arn = stringMember(call.input, 'resourceArn');
    if (!arn) throw ecsErrors.invalidParameter('resourceArn can not be blank.');
    const kind = /^arn:[^:]+:ecs:[^:]+:\d{12}:(cluster|task-definition|service)\//.exec(arn)?.[1];
    const type =
      kind === 'cluster'
        ? CLUSTER_TYPE
        : kind === 'service'
          ? SERVICE_TYPE
          : kind
            ? TASK_DEFINITION_TYPE
            : undefined;
    if (!type) throw ecsErrors.invalidParameter('The ARN provided is invalid.');
    const handler = handlerOf(context, type);
    const entry =
      type === CLUSTER_TYPE
        ? (() => {
            const model = handler.read(clusterName(arn), call.region, call.accountId);
            return model && { identifier: clusterName(arn), model };
          })()
        : handler
            .list(call.region, call.accountId)
            .find(
              (candidate) => candidate.model.ServiceArn === arn || candidate.model.TaskDefinitionArn === arn,
            );
    if (!entry)
      throw new SandboxError('ResourceNotFoundException', "The specified resource wasn't found.", 400);
    const write = (tags: Array<{ Key: string; Value: string }>) => {
      const model: ResourceModel = writableOf(type, entry.model);
      if (tags.length > 0) model.Tags = tags;
      else delete model.Tags;
      return handler.update(entry.identifier, model, call.region, call.accountId);
    };
    const current = Array.isArray(entry.model.Tags)
      ? (entry.model.Tags as Array<{ Key: string; Value: string }>)
      : [];
    return { current, write };
  };
  return {
    TagResource: async (call: ApiCall) => {
      const { current, write } = locate(call);
      const added = (Array.isArray(call.input.tags) ? call.input.tags : []) as Array<{
        key: string;
        value?: string;
      }>;
      if (added.length === 0) throw ecsErrors.invalidParameter('Tags can not be empty.');
      await write([
        ...current.filter((tag) => !added.some((t) => t.key === tag.Key)),
        ...added.map((tag) => ({ Key: tag.key, Value: tag.value ?? '' })),
      ]);
      return {};
    },
    UntagResource: async (call: ApiCall) => {
      const { current, write } = locate(call);
      const keys = Array.isArray(call.input.tagKeys) ? call.input.tagKeys.map(String) : [];
      await write(current.filter((tag) => !keys.includes(tag.Key)));
      return {};
    },
    ListTagsForResource: (call: ApiCall) => ({ tags: apiTags(locate(call).current) }),
  };
}

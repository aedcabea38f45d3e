import type { ResourceModel } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { HTTP_TYPES } from '../config/reader.js';
import type { ManagementRoutes } from '../management/routes.js';
import { httpApiErrors } from './shapes.js';
import type { HttpApiStore, Where } from './store.js';

const TAGGABLE = /^arn:aws[\w-]*:apigateway:([a-z0-9-]+)::\/apis\/(\w+)(?:\/stages\/([^/]+))?$/;

export const TAG_ROUTES: ManagementRoutes['routes'] = [
  { method: 'GET', path: '/v2/tags/{resourceArn+}', operation: 'GetTags' },
  { method: 'POST', path: '/v2/tags/{resourceArn+}', operation: 'TagResource', status: 201 },
  { method: 'DELETE', path: '/v2/tags/{resourceArn+}', operation: 'UntagResource', status: 204 },
];

/** GetTags, TagResource and UntagResource on an API or a stage (tags live in their models). */
export function tagHandlers(store: HttpApiStore): Record<string, ApiHandler> {
  const target = (call: ApiCall): { type: string; model: ResourceModel; where: Where } => {
    const arn = call.labels.resourceArn!;
    const match = TAGGABLE.exec(arn);
    if (!match) throw httpApiErrors.badRequest(`Invalid resource ARN ${arn}.`);
    const where = { region: match[1]!, accountId: call.accountId };
    const api = store.api(match[2]!, where);
    if (match[3] === undefined) return { type: HTTP_TYPES.api, model: api, where };
    const stage = store
      .parts(HTTP_TYPES.stage, match[2]!, where)
      .find((model) => model.StageName === match[3]);
    if (!stage) throw httpApiErrors.notFound('Stage', match[3]);
    return { type: HTTP_TYPES.stage, model: stage, where };
  };
  const tagsOf = (model: ResourceModel) => (model.Tags ?? {}) as Record<string, string>;
  return {
    GetTags: (call) => ({ tags: tagsOf(target(call).model) }),
    async TagResource(call) {
      const { type, model, where } = target(call);
      const added = (call.input.tags ?? {}) as Record<string, string>;
      await store.update(type, { ...model, Tags: { ...tagsOf(model), ...added } }, where);
      return {};
    },
    async UntagResource(call) {
      const { type, model, where } = target(call);
      const removed = new Set(call.request.query.getAll('tagKeys').flatMap((keys) => keys.split(',')));
      const kept = Object.fromEntries(Object.entries(tagsOf(model)).filter(([key]) => !removed.has(key)));
      await store.update(type, { ...model, Tags: kept }, where);
      return undefined;
    },
  };
}

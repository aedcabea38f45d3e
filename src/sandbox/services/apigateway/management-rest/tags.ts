import type { ResourceEntry } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { apigwErrors } from './errors.js';
import { tagListOf, tagMapOf } from './shapes.js';
import { TYPES, type RestApiStore } from './store.js';

const TAGGABLE = /^arn:aws[a-z-]*:apigateway:([a-z0-9-]+)::\/restapis\/([^/]+)(?:\/stages\/([^/]+))?$/;

/** GetTags, TagResource and UntagResource for REST APIs and their stages (tags live in their models). */
export function tagHandlers(storeOf: (call: ApiCall) => RestApiStore): Record<string, ApiHandler> {
  const target = (call: ApiCall): { store: RestApiStore; type: string; entry: ResourceEntry } => {
    const arn = call.labels.resource_arn ?? '';
    const match = TAGGABLE.exec(arn);
    if (!match || match[1] !== call.region) {
      throw apigwErrors.badRequest(`Invalid ARN specified in the request: ${arn}`);
    }
    const store = storeOf(call);
    const api = store.api(match[2]!);
    if (!match[3]) return { store, type: TYPES.api, entry: api };
    const stage = store.parts(TYPES.stage, match[2]!).find((entry) => entry.model.StageName === match[3]);
    if (!stage) throw apigwErrors.notFound('Invalid Stage identifier specified');
    return { store, type: TYPES.stage, entry: stage };
  };
  return {
    GetTags: (call) => ({ tags: tagMapOf(target(call).entry.model) ?? {} }),
    TagResource: async (call) => {
      const { store, type, entry } = target(call);
      const tags = { ...tagMapOf(entry.model), ...(call.input.tags as Record<string, string> | undefined) };
      await store.update(type, entry, { ...entry.model, Tags: tagListOf(tags) ?? [] });
      return undefined;
    },
    UntagResource: async (call) => {
      const { store, type, entry } = target(call);
      const keys = new Set(call.request.query.getAll('tagKeys'));
      const tags = Object.fromEntries(
        Object.entries(tagMapOf(entry.model) ?? {}).filter(([key]) => !keys.has(key)),
      );
      await store.update(type, entry, { ...entry.model, Tags: tagListOf(tags) ?? [] });
      return undefined;
    },
  };
}

import type { ManagementRoutesFactory } from '../management/routes.js';
import { apiHandlers, APIS_ROUTES } from './apis.js';
import { partRoutes } from './parts.js';
import { HttpApiStore } from './store.js';
import { tagHandlers, TAG_ROUTES } from './tags.js';

/**
 * HTTP and WebSocket APIs (v2) under `/v2/`: APIs, their routes, integrations, stages and
 * authorizers, and tags, kept as Cloud Control's models in the store Cloud Control uses, so
 * an API made through these calls is one execute-api serves (config/reader.ts) and one
 * Cloud Control reads, and one a deploy made is one these calls find.
 */
export const createHttpApiManagement: ManagementRoutesFactory = async (context) => {
  const store = new HttpApiStore(context);
  const parts = partRoutes(store);
  return {
    routes: [...APIS_ROUTES, ...parts.routes, ...TAG_ROUTES],
    handlers: { ...apiHandlers(store), ...parts.handlers, ...tagHandlers(store) },
  };
};

import type { RestRoute } from '../../../protocols/rest-json.js';
import type { SandboxContext } from '../../../service-module.js';
import type { ApiHandler } from '../../api-module.js';

/** One half of API Gateway's management API: its routes and the handlers they name. */
export interface ManagementRoutes {
  routes: ReadonlyArray<RestRoute & { status?: number }>;
  handlers: Readonly<Record<string, ApiHandler>>;
}

export type ManagementRoutesFactory = (context: SandboxContext) => Promise<ManagementRoutes>;

import type { ManagementRoutesFactory } from '../management/routes.js';

/** HTTP APIs (v2) under `/v2/`, kept as Cloud Control's models (engineer D fills this in). */
export const createHttpApiManagement: ManagementRoutesFactory = async () => ({ routes: [], handlers: {} });

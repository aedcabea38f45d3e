import type { ManagementRoutesFactory } from '../management/routes.js';

/** REST APIs (v1) under `/restapis`, kept as Cloud Control's models (engineer C fills this in). */
export const createRestApiManagement: ManagementRoutesFactory = async () => ({ routes: [], handlers: {} });

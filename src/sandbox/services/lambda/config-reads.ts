import type { RestRoute } from '../../protocols/rest-json.js';
import { requireFunction, type LambdaHandler } from './call.js';

/**
 * Settings other deploy tools read after creating a function, answered with the values
 * every function has until they are changed (the sandbox does not model changing them).
 */
export const CONFIG_READ_ROUTES: readonly (RestRoute & { status: number; mutating: boolean })[] = [
  {
    method: 'GET',
    path: '/2021-07-20/functions/{FunctionName}/runtime-management-config',
    operation: 'GetRuntimeManagementConfig',
    status: 200,
    mutating: false,
  },
  {
    method: 'GET',
    path: '/2020-06-30/functions/{FunctionName}/code-signing-config',
    operation: 'GetFunctionCodeSigningConfig',
    status: 200,
    mutating: false,
  },
  {
    method: 'GET',
    path: '/2024-08-31/functions/{FunctionName}/recursion-config',
    operation: 'GetFunctionRecursionConfig',
    status: 200,
    mutating: false,
  },
];

export const CONFIG_READ_HANDLERS: Readonly<Record<string, LambdaHandler>> = {
  async GetRuntimeManagementConfig(call) {
    const { record, qualifier } = requireFunction(call);
    return { UpdateRuntimeOn: 'Auto', FunctionArn: qualifier ? `${record.arn}:${qualifier}` : record.arn };
  },
  async GetFunctionCodeSigningConfig(call) {
    const { record } = requireFunction(call);
    return { CodeSigningConfigArn: '', FunctionName: record.name };
  },
  async GetFunctionRecursionConfig(call) {
    requireFunction(call);
    return { RecursiveLoop: 'Terminate' };
  },
};

import type { FunctionConfig, FunctionRecord } from '../model.js';

/** One function version to run: `$LATEST` or a published version's configuration. */
export interface InvokeTarget {
  record: FunctionRecord;
  config: FunctionConfig;
  version: string;
  /** The ARN the caller named (with its version or alias), as the context reports it. */
  invokedFunctionArn: string;
}

export interface InvokeOptions {
  requestId?: string;
  clientContext?: string;
}

export interface InvokeResult {
  /** The handler's result (JSON text), or the error payload Lambda returns for it. */
  payload: string;
  functionError?: 'Unhandled';
  /** Base64 tail of the invocation's log (`X-Amz-Log-Result`). */
  logResult: string;
}

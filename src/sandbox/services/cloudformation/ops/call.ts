import type { SandboxRequest } from '../../../request.js';
import type { StackEngine } from '../engine/engine.js';
import type { Scope } from '../model/store.js';
import type { StackRecord } from '../model/types.js';
import { cfnErrors } from '../wire/errors.js';
import type { Params } from '../wire/params.js';

/** Everything a CloudFormation operation handler needs for one request. */
export interface CfnCall {
  request: SandboxRequest;
  params: Params;
  scope: Scope;
  engine: StackEngine;
}

/** A handler returns the children of its `<{Action}Result>` (undefined for a field left out). */
export type CfnHandler = (call: CfnCall) => Promise<Array<string | undefined>>;

/** The stack a request names by name or id; a name finds no deleted stack. */
export function requireStack(
  call: CfnCall,
  nameOrId: string = call.params.required('StackName'),
): StackRecord {
  const stack = call.engine.deps.store.find(call.scope, nameOrId);
  if (!stack) throw cfnErrors.stackNotFound(nameOrId);
  return stack;
}

const STACK_NAME = /^[a-zA-Z][-a-zA-Z0-9]*$/;

export function assertStackName(name: string): void {
  if (!STACK_NAME.test(name) || name.length > 128) {
    throw cfnErrors.validation(
      `1 validation error detected: Value '${name}' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*`,
    );
  }
}

import { SandboxError } from '../../../errors.js';
import { HandlerError } from '../../../resources.js';
import { isCdkdError } from '../../../../errors.js';

/** A failure whose message is already the status reason CloudFormation shows. */
export class StepFailure extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'StepFailure';
  }
}

/** The stack could not write its record: what seed 004 turns into UPDATE_ROLLBACK_FAILED. */
export class PersistFailure extends StepFailure {}

/** The status reason for a failed step, in CloudFormation's words where it has them. */
export function reasonOf(error: unknown): string {
  if (error instanceof StepFailure) return error.message;
  if (error instanceof HandlerError) {
    return `Resource handler returned message: "${error.message}" (HandlerErrorCode: ${error.errorCode})`;
  }
  if (error instanceof SandboxError) return `${error.message} (Service: ${error.code})`;
  if (isCdkdError(error)) return `Template error: ${error.message}`;
  // A bug in the sandbox, not an AWS behaviour: say so where the operator will see it.
  process.stderr.write(
    `cdkd sandbox: CloudFormation internal error: ${(error as Error)?.stack ?? String(error)}\n`,
  );
  return 'Internal Failure';
}

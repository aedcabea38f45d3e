import { SandboxError } from '../../../errors.js';

/** CloudFormation's errors, in the codes and words its query API answers with. */
export const cfnErrors = {
  validation: (message: string) => new SandboxError('ValidationError', message, 400),
  stackNotFound: (nameOrId: string) =>
    new SandboxError('ValidationError', `Stack with id ${nameOrId} does not exist`, 400),
  stackExists: (name: string) =>
    new SandboxError('AlreadyExistsException', `Stack [${name}] already exists`, 400),
  changeSetExists: (name: string) =>
    new SandboxError('AlreadyExistsException', `ChangeSet [${name}] already exists`, 400),
  changeSetNotFound: (name: string) =>
    new SandboxError('ChangeSetNotFound', `ChangeSet [${name}] does not exist`, 404),
  changeSetStatus: (changeSetId: string, status: string) =>
    new SandboxError(
      'InvalidChangeSetStatus',
      `ChangeSet [${changeSetId}] cannot be executed in its current status of [${status}]`,
      400,
    ),
  changeSetDeleteStatus: (status: string) =>
    new SandboxError('InvalidChangeSetStatus', `Cannot delete ChangeSet in status ${status}`, 400),
  insufficientCapabilities: (capabilities: readonly string[]) =>
    new SandboxError(
      'InsufficientCapabilitiesException',
      `Requires capabilities : [${capabilities.join(', ')}]`,
      400,
    ),
  noUpdates: () => new SandboxError('ValidationError', 'No updates are to be performed.', 400),
  exportNotFound: (name: string) =>
    new SandboxError('ValidationError', `Export '${name}' does not exist.`, 400),
  /** A stack in a status that does not accept the operation. */
  wrongStatus: (stackId: string, status: string, what: string) =>
    new SandboxError('ValidationError', `Stack:${stackId} is in ${status} state and can not ${what}.`, 400),
  invalidAction: (operation: string) =>
    new SandboxError('InvalidAction', `Could not find operation ${operation} for version 2010-05-15`, 400),
};

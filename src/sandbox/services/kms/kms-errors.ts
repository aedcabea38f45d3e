import { SandboxError } from '../../errors.js';

/** KMS errors as its JSON 1.1 API returns them. */
export const kmsErrors = {
  keyNotFound: (id: string) => new SandboxError('NotFoundException', `Key '${id}' does not exist`, 400),
  aliasNotFound: (name: string) =>
    new SandboxError('NotFoundException', `Alias '${name}' does not exist`, 400),
  aliasExists: (name: string) =>
    new SandboxError('AlreadyExistsException', `An alias with the name ${name} already exists`, 400),
  alreadyExists: (message: string) => new SandboxError('AlreadyExistsException', message, 400),
  invalidState: (arn: string, state: string) =>
    new SandboxError('KMSInvalidStateException', `${arn} is ${state}.`, 400),
  validation: (message: string) => new SandboxError('ValidationException', message, 400),
  invalidAliasName: (message: string) => new SandboxError('InvalidAliasNameException', message, 400),
  unsupported: (message: string) => new SandboxError('UnsupportedOperationException', message, 400),
  malformedPolicy: () =>
    new SandboxError('MalformedPolicyDocumentException', 'The policy document is not valid JSON.', 400),
  unknownOperation: (operation: string) =>
    new SandboxError('UnknownOperationException', `Unknown operation ${operation}`, 400),
};

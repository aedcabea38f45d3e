import { SandboxError } from '../../errors.js';

/** SSM's errors as the JSON 1.1 API returns them. */
export const ssmErrors = {
  parameterNotFound: (name: string) =>
    new SandboxError('ParameterNotFound', `Parameter ${name} not found.`, 400),
  parameterVersionNotFound: (name: string, version: string) =>
    new SandboxError(
      'ParameterVersionNotFound',
      `Systems Manager could not find version ${version} of ${name}. Verify the version and try again.`,
      400,
    ),
  parameterAlreadyExists: () =>
    new SandboxError(
      'ParameterAlreadyExists',
      'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.',
      400,
    ),
  validation: (message: string) => new SandboxError('ValidationException', message, 400),
  unsupportedType: (type: string) =>
    new SandboxError('UnsupportedParameterType', `${type} is not a valid parameter type.`, 400),
  accessDenied: (operation: string, arn: string) =>
    new SandboxError(
      'AccessDeniedException',
      `User is not authorized to perform: ssm:${operation} on resource: ${arn}`,
      400,
    ),
  invalidResourceId: () =>
    new SandboxError(
      'InvalidResourceId',
      'The resource ID is not valid. Verify that the resource ID is correct and try again.',
      400,
    ),
  invalidResourceType: () =>
    new SandboxError(
      'InvalidResourceType',
      'The resource type is not valid. For example, if you are attempting to tag an EC2 instance, the instance must be a registered managed node.',
      400,
    ),
  invalidAction: (operation: string) =>
    new SandboxError('InvalidAction', `The action ${operation} is not valid for this web service.`, 400),
};

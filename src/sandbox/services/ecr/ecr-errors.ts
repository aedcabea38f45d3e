import { SandboxError } from '../../errors.js';

/** ECR's errors as its JSON 1.1 API returns them. */
export const ecrErrors = {
  repositoryNotFound: (name: string, registryId: string) =>
    new SandboxError(
      'RepositoryNotFoundException',
      `The repository with name '${name}' does not exist in the registry with id '${registryId}'`,
      400,
    ),
  repositoryExists: (name: string, registryId: string) =>
    new SandboxError(
      'RepositoryAlreadyExistsException',
      `The repository with name '${name}' already exists in the registry with id '${registryId}'`,
      400,
    ),
  policyNotFound: (name: string, registryId: string) =>
    new SandboxError(
      'RepositoryPolicyNotFoundException',
      `Repository policy does not exist for the repository with name '${name}' in the registry with id '${registryId}'`,
      400,
    ),
  lifecycleNotFound: (name: string, registryId: string) =>
    new SandboxError(
      'LifecyclePolicyNotFoundException',
      `Lifecycle policy does not exist for the repository with name '${name}' in the registry with id '${registryId}'`,
      400,
    ),
  invalidParameter: (message: string) => new SandboxError('InvalidParameterException', message, 400),
  invalidAction: (operation: string) =>
    new SandboxError(
      'UnknownOperationException',
      `The operation ${operation} is not supported by the sandbox's ECR.`,
      400,
    ),
};

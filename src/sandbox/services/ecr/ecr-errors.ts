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
  repositoryNotEmpty: (name: string, registryId: string) =>
    new SandboxError(
      'RepositoryNotEmptyException',
      `The repository with name '${name}' in registry with id '${registryId}' cannot be deleted because it still contains images`,
      400,
    ),
  imageNotFound: (imageId: string, name: string, registryId: string) =>
    new SandboxError(
      'ImageNotFoundException',
      `The image with imageId ${imageId} does not exist within the repository with name '${name}' in the registry with id '${registryId}'`,
      400,
    ),
  imageExists: (digest: string, tag: string, name: string, registryId: string) =>
    new SandboxError(
      'ImageAlreadyExistsException',
      `Image with digest '${digest}' and tag '${tag}' already exists in the repository with name '${name}' in registry with id '${registryId}'`,
      400,
    ),
  imageTagExists: (message: string) => new SandboxError('ImageTagAlreadyExistsException', message, 400),
  digestMismatch: (message: string) => new SandboxError('ImageDigestDoesNotMatchException', message, 400),
  layersNotFound: (digests: string[], name: string, registryId: string) =>
    new SandboxError(
      'LayersNotFoundException',
      `Layers with digests '[${digests.join(', ')}]' required for pushing image into repository with name '${name}' in the registry with id '${registryId}' do not exist`,
      400,
    ),
  referencedImagesNotFound: (message: string) =>
    new SandboxError('ReferencedImagesNotFoundException', message, 400),
  uploadNotFound: (uploadId: string, name: string, registryId: string) =>
    new SandboxError(
      'UploadNotFoundException',
      `Upload with id '${uploadId}' is not found in the repository with name '${name}' in the registry with id '${registryId}'`,
      400,
    ),
  invalidLayerPart: (message: string) => new SandboxError('InvalidLayerPartException', message, 400),
  invalidLayer: (message: string) => new SandboxError('InvalidLayerException', message, 400),
  emptyUpload: (uploadId: string) =>
    new SandboxError(
      'EmptyUploadException',
      `The upload with id '${uploadId}' does not contain any layer parts`,
      400,
    ),
  layerExists: (digest: string, name: string, registryId: string) =>
    new SandboxError(
      'LayerAlreadyExistsException',
      `The layer with digest '${digest}' already exists in the repository with name '${name}' in the registry with id '${registryId}'`,
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

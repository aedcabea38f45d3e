import { stat } from 'node:fs/promises';
import type { ECRClient } from '@aws-sdk/client-ecr';
import type { ContainerAsset } from '../assembly/index.js';
import { awsErrorCode } from '../aws/error-class.js';
import { CdkdError, isCdkdError } from '../errors.js';
import { buildArguments, localImageTag, loginArguments, pushArguments } from './container/build-arguments.js';
import { containerCliName, runContainerCli } from './container/container-cli.js';
import { checkImageDestination, type ResolvedImageDestination } from './container/image-destination.js';
import { ecrRegistry, type Registry } from './container/registry-login.js';
import { runBuildCommand } from './executable.js';
import type { AssetPublisher, ImagePublication, PublishContext } from './publisher.js';

/**
 * Builds a container image asset with a Docker-compatible CLI (`CDK_DOCKER`, else
 * `docker`) and pushes it to each repository the manifest names, under the manifest's
 * tag, so the image URIs the CDK wrote into the template resolve as they are. A
 * repository that holds the tag already is left alone; when every one does, nothing is
 * built. Each asset is built at most once per deploy run, however many stacks name it.
 */
export const containerImagePublisher: AssetPublisher<ContainerAsset, ImagePublication> = {
  async check(asset, stack, target) {
    for (const destination of asset.destinations)
      checkImageDestination(destination, target, { name: describe(asset), stack });
    if (asset.executable) return;
    const directory = asset.absoluteDirectory;
    const stats = directory === undefined ? undefined : await stat(directory).catch(() => undefined);
    if (!stats?.isDirectory()) {
      throw new CdkdError(
        'ASSET_NOT_FOUND',
        `Image asset ${describe(asset)} of stack ${stack} is missing: its build directory ${directory ?? '(none named)'} does not exist.`,
        { hint: 'Re-run cdk synth (or cdkd synth) so the cloud assembly holds every asset it names.' },
      );
    }
  },
  publish(asset, context) {
    let publishing = context.run.images.get(asset.hash);
    if (!publishing) {
      publishing = publishImage(asset, context);
      context.run.images.set(asset.hash, publishing);
    }
    return publishing;
  },
};

async function publishImage(asset: ContainerAsset, context: PublishContext): Promise<ImagePublication[]> {
  const target = { accountId: context.accountId, region: context.region };
  const destinations = asset.destinations.map((destination) =>
    checkImageDestination(destination, target, { name: describe(asset), stack: context.stack }),
  );
  const ecr = await context.ecr();
  const publications: ImagePublication[] = [];
  const missing: ResolvedImageDestination[] = [];
  for (const destination of destinations) {
    if (await holdsTag(ecr, destination, asset, context))
      publications.push(publication(asset, destination, 'skipped'));
    else missing.push(destination);
  }
  for (const published of publications) context.onEvent({ type: 'pushed', publication: published });
  if (missing.length === 0) return publications;

  const cli = containerCliName();
  const name = describe(asset);
  const registry = await loggedIn(cli, ecr, context, name);
  context.onEvent({ type: 'building', ...identity(asset) });
  const local = asset.executable
    ? await runBuildCommand(
        asset.executable,
        { id: asset.hash, name, stack: context.stack, cwd: asset.manifestDir ?? process.cwd() },
        context.run,
        context.onEvent,
      )
    : await build(cli, asset, name);
  for (const destination of missing) {
    const remote = `${registry.host}/${destination.repositoryName}:${destination.imageTag}`;
    await runContainerCli(cli, ['tag', local, remote], {
      purpose: `tagging image asset ${name}`,
      asset: name,
    });
    await runContainerCli(cli, pushArguments(cli, registry, remote), {
      purpose: `pushing image asset ${name} to ${destination.repositoryName}`,
      asset: name,
    });
    const pushed = publication(asset, destination, 'pushed');
    publications.push(pushed);
    context.onEvent({ type: 'pushed', publication: pushed });
  }
  return publications;
}

async function build(cli: string, asset: ContainerAsset, name: string): Promise<string> {
  const tag = localImageTag(asset.hash);
  await runContainerCli(cli, buildArguments(asset, tag), {
    purpose: `building image asset ${name}`,
    asset: name,
    cwd: asset.absoluteDirectory!,
  });
  return tag;
}

/** The region's registry, logged in to once per run (every image of the region shares it). */
function loggedIn(cli: string, ecr: ECRClient, context: PublishContext, asset: string): Promise<Registry> {
  let login = context.run.registries.get(context.region);
  if (!login) {
    login = (async () => {
      const registry = await ecrRegistry(ecr).catch((error: unknown) => {
        throw registryError(error, `Logging in to the image registry of ${context.region}`);
      });
      await runContainerCli(cli, loginArguments(cli, registry, registry.username), {
        purpose: `logging in to the image registry ${registry.host}`,
        asset,
        input: registry.password,
      });
      return registry;
    })();
    context.run.registries.set(context.region, login);
    // A failed login is not remembered: the next asset tries again.
    login.catch(() => context.run.registries.delete(context.region));
  }
  return login;
}

/**
 * Whether the repository holds the tag (DescribeImages). A repository that is not there
 * yet is made, as cdkd makes the asset bucket of a region no bootstrap prepared: tags
 * immutable, as the CDK's bootstrap repository has them.
 */
async function holdsTag(
  ecr: ECRClient,
  destination: ResolvedImageDestination,
  asset: ContainerAsset,
  context: PublishContext,
): Promise<boolean> {
  const { DescribeImagesCommand, CreateRepositoryCommand } = await import('@aws-sdk/client-ecr');
  try {
    await ecr.send(
      new DescribeImagesCommand({
        repositoryName: destination.repositoryName,
        imageIds: [{ imageTag: destination.imageTag }],
      }),
    );
    return true;
  } catch (error) {
    const code = awsErrorCode(error);
    if (code === 'ImageNotFoundException') return false;
    if (code !== 'RepositoryNotFoundException')
      throw registryError(
        error,
        `Looking up image asset ${describe(asset)} in ${destination.repositoryName}`,
      );
  }
  try {
    await ecr.send(
      new CreateRepositoryCommand({
        repositoryName: destination.repositoryName,
        imageTagMutability: 'IMMUTABLE',
      }),
    );
    context.onEvent({
      type: 'repository-created',
      repositoryName: destination.repositoryName,
      region: context.region,
    });
  } catch (error) {
    if (awsErrorCode(error) !== 'RepositoryAlreadyExistsException')
      throw registryError(error, `Creating the image repository ${destination.repositoryName}`);
  }
  return false;
}

function registryError(error: unknown, doing: string): unknown {
  if (isCdkdError(error)) return error;
  return new CdkdError(
    'CONTAINER_REGISTRY_FAILED',
    `${doing} failed: ${awsErrorCode(error) ?? (error instanceof Error ? error.message : String(error))}.`,
    {
      hint: 'Check the credentials in use may call ECR in this region; --verbose shows the error.',
      cause: error,
    },
  );
}

function publication(
  asset: ContainerAsset,
  destination: ResolvedImageDestination,
  action: ImagePublication['action'],
): ImagePublication {
  return { ...identity(asset), ...destination, action };
}

function identity(asset: ContainerAsset): { assetId: string; displayName?: string } {
  return { assetId: asset.hash, ...(asset.displayName ? { displayName: asset.displayName } : {}) };
}

function describe(asset: ContainerAsset): string {
  return asset.displayName ? `${asset.displayName} (${asset.hash})` : asset.hash;
}

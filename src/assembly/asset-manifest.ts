import { dirname, resolve } from 'node:path';
import { Manifest } from '@aws-cdk/cloud-assembly-schema';
import { CdkdError } from '../errors.js';
import { parseJsonFile } from './manifest.js';
import type { AssetManifest, ContainerAsset, FileAsset } from './types.js';

/**
 * Reads one `*.assets.json`. Relative source paths resolve against the asset
 * manifest's own directory (a Stage's manifest writes `../asset.<hash>`); the
 * containment check against the output directory is a separate step (asset-paths.ts).
 */
export function loadAssetManifest(file: string): AssetManifest {
  parseJsonFile(file, 'asset manifest');
  let manifest: ReturnType<typeof Manifest.loadAssetManifest>;
  try {
    manifest = Manifest.loadAssetManifest(file);
  } catch (cause) {
    throw new CdkdError('ASSEMBLY_MALFORMED', `The asset manifest ${file} is not valid.`, {
      hint: 'Re-synthesize the app with an aws-cdk-lib version cdkd supports.',
      cause,
    });
  }
  const dir = dirname(file);
  const files: FileAsset[] = Object.entries(manifest.files ?? {}).map(([hash, asset]) => ({
    hash,
    ...(asset.displayName ? { displayName: asset.displayName } : {}),
    ...(asset.source.path
      ? { sourcePath: asset.source.path, absoluteSourcePath: resolve(dir, asset.source.path) }
      : {}),
    packaging: asset.source.packaging === 'zip' ? 'zip' : 'file',
    ...(asset.source.executable ? { executable: asset.source.executable, manifestDir: dir } : {}),
    destinations: Object.entries(asset.destinations).map(([id, d]) => ({
      id,
      bucketName: d.bucketName,
      objectKey: d.objectKey,
      ...(d.region ? { region: d.region } : {}),
      ...(d.assumeRoleArn ? { assumeRoleArn: d.assumeRoleArn } : {}),
      ...(d.assumeRoleExternalId ? { assumeRoleExternalId: d.assumeRoleExternalId } : {}),
    })),
  }));
  const containers: ContainerAsset[] = Object.entries(manifest.dockerImages ?? {}).map(([hash, asset]) => ({
    hash,
    ...(asset.displayName ? { displayName: asset.displayName } : {}),
    ...(asset.source.directory
      ? { directory: asset.source.directory, absoluteDirectory: resolve(dir, asset.source.directory) }
      : {}),
    ...(asset.source.dockerFile ? { dockerFile: asset.source.dockerFile } : {}),
    ...(asset.source.dockerBuildTarget ? { dockerBuildTarget: asset.source.dockerBuildTarget } : {}),
    ...(asset.source.dockerBuildArgs ? { dockerBuildArgs: asset.source.dockerBuildArgs } : {}),
    ...(asset.source.dockerBuildContexts ? { dockerBuildContexts: asset.source.dockerBuildContexts } : {}),
    ...(asset.source.dockerBuildSecrets ? { dockerBuildSecrets: asset.source.dockerBuildSecrets } : {}),
    ...(asset.source.dockerBuildSsh ? { dockerBuildSsh: asset.source.dockerBuildSsh } : {}),
    ...(asset.source.networkMode ? { networkMode: asset.source.networkMode } : {}),
    ...(asset.source.platform ? { platform: asset.source.platform } : {}),
    ...(asset.source.dockerOutputs ? { dockerOutputs: asset.source.dockerOutputs } : {}),
    ...(asset.source.cacheFrom ? { cacheFrom: asset.source.cacheFrom } : {}),
    ...(asset.source.cacheTo ? { cacheTo: asset.source.cacheTo } : {}),
    ...(asset.source.cacheDisabled ? { cacheDisabled: true } : {}),
    ...(asset.source.executable ? { executable: asset.source.executable, manifestDir: dir } : {}),
    destinations: Object.entries(asset.destinations).map(([id, d]) => ({
      id,
      repositoryName: d.repositoryName,
      imageTag: d.imageTag,
      ...(d.region ? { region: d.region } : {}),
      ...(d.assumeRoleArn ? { assumeRoleArn: d.assumeRoleArn } : {}),
      ...(d.assumeRoleExternalId ? { assumeRoleExternalId: d.assumeRoleExternalId } : {}),
    })),
  }));
  return { file, files, containers };
}

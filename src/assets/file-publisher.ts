import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { httpStatusOf } from '../aws/error-class.js';
import type { FileAsset } from '../assembly/index.js';
import { CdkdError } from '../errors.js';
import { assetBucketError } from './asset-bucket.js';
import type { AssetPublication, AssetPublisher, PublishContext } from './publisher.js';
import { runBuildCommand } from './executable.js';

const RESYNTH_HINT = 'Re-run cdk synth (or cdkd synth) so the cloud assembly holds every asset it names.';

/**
 * Puts a file asset at each destination key that is not in the bucket yet: a directory
 * zipped (deterministically), a file as is. The key is the destination's objectKey, as
 * written in the template, so the references need no key rewrite.
 */
export const fileAssetPublisher: AssetPublisher<FileAsset> = { check, publish };

async function check(asset: FileAsset, stack: string): Promise<void> {
  // A build command's output is known only once it runs, after the bucket is checked.
  if (asset.executable) return;
  const path = asset.absoluteSourcePath;
  if (path === undefined) {
    throw new CdkdError(
      'ASSET_NOT_FOUND',
      `Asset ${describe(asset)} of stack ${stack} names neither a path nor a build command.`,
      { hint: RESYNTH_HINT },
    );
  }
  const stats = await stat(path).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code !== 'ENOENT' && cause.code !== 'ENOTDIR') throw cause;
    throw new CdkdError(
      'ASSET_NOT_FOUND',
      `Asset ${describe(asset)} of stack ${stack} is missing: ${path} does not exist.`,
      { hint: RESYNTH_HINT, cause },
    );
  });
  const wanted = asset.packaging === 'zip' ? 'directory' : 'file';
  if (wanted === 'directory' ? !stats.isDirectory() : !stats.isFile()) {
    throw new CdkdError(
      'ASSET_SOURCE_MISMATCH',
      `Asset ${describe(asset)} of stack ${stack} has packaging "${asset.packaging}", so ${path} should be a ${wanted}, and it is not.`,
      { hint: RESYNTH_HINT },
    );
  }
}

async function publish(asset: FileAsset, context: PublishContext): Promise<AssetPublication[]> {
  const keys = [...new Set(asset.destinations.map((destination) => destination.objectKey))];
  const publications: AssetPublication[] = [];
  const done = (published: AssetPublication) => {
    publications.push(published);
    context.onEvent({ type: 'published', publication: published });
  };
  const missing: string[] = [];
  for (const key of keys) {
    if (await exists(asset, key, context)) done(publication(asset, key, context, 'skipped'));
    else missing.push(key);
  }
  if (missing.length === 0) return publications;
  const body = await packaged(asset, context);
  for (const key of missing) {
    context.onEvent({ type: 'uploading', ...identity(asset), bucket: context.bucket, key });
    try {
      await context.s3.send(new PutObjectCommand({ Bucket: context.bucket, Key: key, Body: body }));
    } catch (error) {
      throw uploadError(error, asset, key, context);
    }
    done({ ...publication(asset, key, context, 'uploaded'), bytes: body.length });
  }
  return publications;
}

/**
 * The bytes to upload, buffered rather than streamed so the SDK can resend them when it
 * retries: a build command's output file as is, a directory zipped, a file as is.
 */
async function packaged(asset: FileAsset, context: PublishContext): Promise<Buffer> {
  if (asset.executable) {
    const cwd = asset.manifestDir ?? process.cwd();
    const printed = await runBuildCommand(
      asset.executable,
      { id: asset.hash, name: describe(asset), stack: context.stack, cwd },
      context.run,
      context.onEvent,
    );
    const output = resolve(cwd, printed);
    return readFile(output).catch((cause: NodeJS.ErrnoException) => {
      throw new CdkdError(
        'ASSET_BUILD_COMMAND_FAILED',
        `The build command of asset ${describe(asset)} of stack ${context.stack} printed ${printed}, which is not a readable file (${cause.code ?? cause.message}).`,
        {
          hint: 'The command must print the path of the file it produced, and nothing else, on stdout.',
          cause,
        },
      );
    });
  }
  const path = asset.absoluteSourcePath!;
  // The zip library loads with the first directory asset, not with every deploy.
  return asset.packaging === 'zip' ? (await import('./zip-directory.js')).zipDirectory(path) : readFile(path);
}

/**
 * Presence is enough: the key is CDK's hash of the source and a PutObject is atomic, so
 * an object under it holds this content; its size is not compared (a zip's size is only
 * known after packaging, which the skip exists to avoid).
 */
async function exists(asset: FileAsset, key: string, context: PublishContext): Promise<boolean> {
  try {
    await context.s3.send(new HeadObjectCommand({ Bucket: context.bucket, Key: key }));
    return true;
  } catch (error) {
    if (httpStatusOf(error) === 404) return false;
    throw uploadError(error, asset, key, context);
  }
}

function uploadError(error: unknown, asset: FileAsset, key: string, context: PublishContext): unknown {
  const bucketError = assetBucketError(error, context.bucket, context.region);
  if (bucketError) return bucketError;
  return new CdkdError(
    'ASSET_UPLOAD_FAILED',
    `Publishing asset ${describe(asset)} of stack ${context.stack} to s3://${context.bucket}/${key} failed: ${error instanceof Error ? error.message : String(error)}`,
    { hint: 'Re-run the deploy; --verbose shows the S3 error.', cause: error },
  );
}

function publication(
  asset: FileAsset,
  key: string,
  context: PublishContext,
  action: AssetPublication['action'],
): AssetPublication {
  return { ...identity(asset), bucket: context.bucket, key, action };
}

function identity(asset: FileAsset): { assetId: string; displayName?: string } {
  return { assetId: asset.hash, ...(asset.displayName ? { displayName: asset.displayName } : {}) };
}

function describe(asset: FileAsset): string {
  return asset.displayName ? `${asset.displayName} (${asset.hash})` : asset.hash;
}

import type { ECRClient } from '@aws-sdk/client-ecr';
import type { S3Client } from '@aws-sdk/client-s3';
import type { AssetManifest, ContainerAsset, FileAsset } from '../assembly/index.js';
import { assetBucketName } from '../state/bucket-names.js';
import { checkAssetBucket } from './asset-bucket.js';
import { containerImagePublisher } from './container-publisher.js';
import { fileAssetPublisher } from './file-publisher.js';
import { newAssetRun, type AssetRun } from './asset-run.js';
import type {
  AssetEvent,
  AssetPublication,
  AssetPublisher,
  ImagePublication,
  PublishContext,
} from './publisher.js';
import { runLimited } from './run-limited.js';

/** What publishing needs of a stack; a StackArtifact fits. */
export interface StackAssets {
  /** Names the stack in messages. */
  displayName: string;
  /** cdkd deploys this template itself, so its own file asset is not uploaded. */
  templateFile: string;
  assetManifests: readonly AssetManifest[];
}

export interface AssetPublishers {
  file: AssetPublisher<FileAsset>;
  container: AssetPublisher<ContainerAsset, ImagePublication>;
}

export interface PublishAssetsInput {
  stacks: readonly StackAssets[];
  accountId: string;
  /** The region being deployed to; its asset bucket receives every asset. */
  region: string;
  /** An S3 client for `region`. */
  s3: S3Client;
  /** An ECR client for `region`, asked for only when a stack has an image asset. */
  ecr?: () => Promise<ECRClient>;
  /** Assets built or uploaded at once (default 4), file and image assets alike. */
  concurrency?: number;
  onEvent?: (event: AssetEvent) => void;
  /** One publisher per asset kind. */
  publishers?: AssetPublishers;
  /**
   * Shared by every call of one deploy run, so an image several stacks name is built once
   * and the run's slots bound the assets in flight across stacks deploying at once.
   */
  run?: AssetRun;
}

export interface PublishAssetsResult {
  bucket: string;
  publications: AssetPublication[];
  images: ImagePublication[];
}

const DEFAULT_CONCURRENCY = 4;

type Target = { accountId: string; region: string };

/** An asset bound to its kind's publisher. */
interface Job {
  stack: string;
  check(target: Target): Promise<void>;
  publish(context: PublishContext): Promise<{ files: AssetPublication[]; images: ImagePublication[] }>;
}

/**
 * Publishes the assets of the stacks about to be deployed to cdkd's asset bucket for
 * `accountId` and `region`. Every asset is checked (source on disk, kind supported) and
 * the bucket proven to exist before anything is packaged or sent; an object key shared
 * by several stacks or assets is published once. A stack with no assets but its own
 * template makes no S3 call at all.
 */
export async function publishAssets(input: PublishAssetsInput): Promise<PublishAssetsResult> {
  const publishers = input.publishers ?? { file: fileAssetPublisher, container: containerImagePublisher };
  const bucket = assetBucketName(input.accountId, input.region);
  const jobs = collectJobs(input.stacks, publishers);
  if (jobs.length === 0) return { bucket, publications: [], images: [] };
  const target = { accountId: input.accountId, region: input.region };
  for (const job of jobs) await job.check(target);
  await checkAssetBucket(input.s3, bucket, input.region);
  const onEvent = input.onEvent ?? (() => undefined);
  const concurrency = input.concurrency ?? DEFAULT_CONCURRENCY;
  const run = input.run ?? newAssetRun(concurrency);
  const ecr = input.ecr ?? noEcr;
  const results = await runLimited(jobs, concurrency, (job) =>
    run.slot(() => job.publish({ s3: input.s3, ecr, ...target, bucket, stack: job.stack, run, onEvent })),
  );
  return {
    bucket,
    publications: results.flatMap((result) => result.files),
    images: results.flatMap((result) => result.images),
  };
}

function noEcr(): Promise<ECRClient> {
  return Promise.reject(new Error('publishAssets was given no ECR client for an image asset'));
}

/**
 * One job per asset, in manifest order, each keeping only the destination keys no
 * earlier job claimed (the same hash shows up in every stack that shares an asset).
 */
function collectJobs(stacks: readonly StackAssets[], publishers: AssetPublishers): Job[] {
  const jobs: Job[] = [];
  const claimedKeys = new Set<string>();
  const seenImages = new Set<string>();
  for (const stack of stacks) {
    for (const manifest of stack.assetManifests) {
      for (const asset of manifest.files) {
        if (asset.absoluteSourcePath === stack.templateFile) continue;
        const destinations = asset.destinations.filter((d) => !claimedKeys.has(d.objectKey));
        if (destinations.length === 0) continue;
        for (const destination of destinations) claimedKeys.add(destination.objectKey);
        const file = { ...asset, destinations };
        jobs.push({
          stack: stack.displayName,
          check: (target) => publishers.file.check(file, stack.displayName, target),
          publish: async (context) => ({ files: await publishers.file.publish(file, context), images: [] }),
        });
      }
      for (const asset of manifest.containers) {
        if (seenImages.has(asset.hash)) continue;
        seenImages.add(asset.hash);
        jobs.push({
          stack: stack.displayName,
          check: (target) => publishers.container.check(asset, stack.displayName, target),
          publish: async (context) => ({
            files: [],
            images: await publishers.container.publish(asset, context),
          }),
        });
      }
    }
  }
  return jobs;
}

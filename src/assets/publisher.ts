import type { ECRClient } from '@aws-sdk/client-ecr';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Registry } from './container/registry-login.js';

export interface AssetPublication {
  assetId: string;
  displayName?: string;
  bucket: string;
  key: string;
  /** `skipped`: the key was already in the bucket, so nothing was read or sent. */
  action: 'uploaded' | 'skipped';
  /** Bytes sent; absent when skipped. */
  bytes?: number;
}

export interface ImagePublication {
  assetId: string;
  displayName?: string;
  repositoryName: string;
  imageTag: string;
  /** `skipped`: the repository held the tag already, so nothing was built or pushed. */
  action: 'pushed' | 'skipped';
}

export type AssetEvent =
  | { type: 'uploading'; assetId: string; displayName?: string; bucket: string; key: string }
  | { type: 'published'; publication: AssetPublication }
  | { type: 'building'; assetId: string; displayName?: string }
  | { type: 'pushed'; publication: ImagePublication }
  | { type: 'repository-created'; repositoryName: string; region: string }
  /** An asset's build command is about to run; `first` for the first run of that command in the run. */
  | { type: 'build-command'; assetId: string; command: string[]; cwd: string; first: boolean };

export interface PublishContext {
  s3: S3Client;
  /** An ECR client for `region`, made on first use (only image assets need one). */
  ecr: () => Promise<ECRClient>;
  accountId: string;
  region: string;
  /** cdkd's asset bucket for the account and region being deployed to. */
  bucket: string;
  /** The stack that first named the asset, for messages. */
  stack: string;
  /** What the deploy run shares between the stacks it publishes for. */
  run: AssetRun;
  onEvent: (event: AssetEvent) => void;
}

/** One per asset kind, each with its own check and publication. */
export interface AssetPublisher<A, P = AssetPublication> {
  /** Throws a CdkdError when the asset cannot be published; runs for every asset before any upload. */
  check(asset: A, stack: string, target: { accountId: string; region: string }): Promise<void>;
  publish(asset: A, context: PublishContext): Promise<P[]>;
}

/**
 * What one deploy run shares across the stacks it publishes for: each image asset is
 * built and pushed once however many stacks name it, each registry logged in to once,
 * and each distinct build command announced once.
 */
export interface AssetRun {
  readonly images: Map<string, Promise<ImagePublication[]>>;
  /** Per region: the registry, logged in to. */
  readonly registries: Map<string, Promise<Registry>>;
  /** Build commands announced so far, as their joined argv. */
  readonly announced: Set<string>;
  /** Runs `work` once one of the run's asset slots (`--asset-parallelism`) is free, whichever stack it is for. */
  readonly slot: <T>(work: () => Promise<T>) => Promise<T>;
}

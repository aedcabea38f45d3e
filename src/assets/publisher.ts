import type { S3Client } from '@aws-sdk/client-s3';

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

export type AssetEvent =
  | { type: 'uploading'; assetId: string; displayName?: string; bucket: string; key: string }
  | { type: 'published'; publication: AssetPublication };

export interface PublishContext {
  s3: S3Client;
  region: string;
  /** cdkd's asset bucket for the account and region being deployed to. */
  bucket: string;
  /** The stack that first named the asset, for messages. */
  stack: string;
  onEvent: (event: AssetEvent) => void;
}

/**
 * One per asset kind, so a kind cdkd cannot publish yet (container images) is refused by
 * its own publisher and a later one can take its place without touching the service.
 */
export interface AssetPublisher<A> {
  /** Throws a CdkdError when the asset cannot be published; runs for every asset before any upload. */
  check(asset: A, stack: string): Promise<void>;
  publish(asset: A, context: PublishContext): Promise<AssetPublication[]>;
}

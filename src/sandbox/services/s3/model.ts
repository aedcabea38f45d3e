/** S3 state as the sandbox persists it: one document per bucket and one per object version. */

export interface EncryptionRule {
  algorithm: string;
  kmsKeyId?: string;
  bucketKeyEnabled?: boolean;
}

export interface PublicAccessBlock {
  BlockPublicAcls: boolean;
  IgnorePublicAcls: boolean;
  BlockPublicPolicy: boolean;
  RestrictPublicBuckets: boolean;
}

export interface Tag {
  Key: string;
  Value: string;
}

export interface BucketRecord {
  name: string;
  region: string;
  /** As given at creation; '' when none was (us-east-1). */
  locationConstraint: string;
  createdAt: string;
  /** Unset until versioning is first configured; a bucket never returns to unversioned. */
  versioning?: 'Enabled' | 'Suspended';
  policy?: string;
  tags?: Tag[];
  encryption: EncryptionRule[];
  publicAccessBlock?: PublicAccessBlock;
  /**
   * AWS::S3::Bucket properties set through Cloud Control that this S3 emulation does not
   * model (LifecycleConfiguration, CorsConfiguration ...), kept so a read returns them.
   */
  otherProperties?: Record<string, unknown>;
  /** Configurations kept as the XML sent (lifecycle, cors, ownershipControls, notification). */
  documents?: Record<string, string>;
}

export interface Checksum {
  /** Upper-case algorithm as in the header name: CRC32, CRC32C, CRC64NVME, SHA1, SHA256. */
  algorithm: string;
  value: string;
}

export interface ObjectVersion {
  key: string;
  /** 'null' for versions written while versioning was off or suspended. */
  versionId: string;
  /** Creation order across the bucket; newest is highest. */
  seq: number;
  lastModified: string;
  deleteMarker: boolean;
  /** Quoted hex MD5 of the body. '' for delete markers. */
  etag: string;
  size: number;
  blobId?: string;
  contentType?: string;
  /** Stored representation headers returned on GET (content-encoding, cache-control ...). */
  headers: Record<string, string>;
  /** User metadata, without the `x-amz-meta-` prefix. */
  metadata: Record<string, string>;
  checksum?: Checksum;
}

/** Default encryption every new bucket has had since January 2023 (SSE-S3). */
export const DEFAULT_ENCRYPTION: EncryptionRule[] = [{ algorithm: 'AES256', bucketKeyEnabled: false }];

/** Block Public Access every new bucket has had since April 2023. */
export const DEFAULT_PUBLIC_ACCESS_BLOCK: PublicAccessBlock = {
  BlockPublicAcls: true,
  IgnorePublicAcls: true,
  BlockPublicPolicy: true,
  RestrictPublicBuckets: true,
};

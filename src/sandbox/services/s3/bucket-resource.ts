import { randomString } from '../../ids.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import { bucketNameProblem } from './bucket-name.js';
import {
  DEFAULT_ENCRYPTION,
  DEFAULT_PUBLIC_ACCESS_BLOCK,
  type BucketRecord,
  type EncryptionRule,
  type PublicAccessBlock,
  type Tag,
} from './model.js';
import type { S3Store } from './store.js';

/** The properties this module stores in its own fields; the rest go to `otherProperties`. */
const MODELLED = new Set([
  'BucketName',
  'VersioningConfiguration',
  'Tags',
  'BucketEncryption',
  'PublicAccessBlockConfiguration',
]);
const READ_ONLY = new Set(['Arn', 'DomainName', 'RegionalDomainName', 'DualStackDomainName', 'WebsiteURL']);

/** AWS::S3::Bucket for Cloud Control, on the S3 module's own store. */
export function bucketResourceHandler(store: S3Store, foreignBuckets: ReadonlySet<string>): ResourceHandler {
  return {
    async create(desired, region) {
      const name = typeof desired.BucketName === 'string' ? desired.BucketName : generatedBucketName();
      const problem = bucketNameProblem(name);
      if (problem)
        throw new HandlerError('InvalidRequest', `Bucket name ${name} is not valid: it ${problem}.`);
      if (store.bucket(name) || foreignBuckets.has(name)) {
        throw new HandlerError('AlreadyExists', `${name} already exists`);
      }
      const record: BucketRecord = {
        name,
        region,
        locationConstraint: region === 'us-east-1' ? '' : region,
        createdAt: new Date().toISOString(),
        encryption: structuredClone(DEFAULT_ENCRYPTION),
        publicAccessBlock: { ...DEFAULT_PUBLIC_ACCESS_BLOCK },
      };
      applyDesired(record, desired);
      await store.createBucket(record);
      return { identifier: name, model: bucketModel(record) };
    },
    read(identifier) {
      const state = store.bucket(identifier);
      return state ? bucketModel(state.record) : undefined;
    },
    async update(identifier, desired) {
      const state = store.bucket(identifier);
      if (!state) throw notFound(identifier);
      applyDesired(state.record, desired);
      await store.saveBucket(state);
      return bucketModel(state.record);
    },
    async delete(identifier) {
      const state = store.bucket(identifier);
      if (!state) throw notFound(identifier);
      if (state.objects.size > 0) {
        // The S3 handler reports S3's own refusal as a general service failure.
        throw new HandlerError(
          'GeneralServiceException',
          `The bucket you tried to delete is not empty (Service: S3, Status Code: 409, Request ID: ${randomString(16)})`,
        );
      }
      await store.deleteBucket(identifier);
    },
    list(region) {
      return store
        .bucketNames()
        .map((name) => store.bucket(name)!.record)
        .filter((record) => record.region === region)
        .map((record) => ({ identifier: record.name, model: bucketModel(record) }));
    },
  };
}

function notFound(name: string): HandlerError {
  return new HandlerError('NotFound', `Bucket ${name} not found`);
}

function generatedBucketName(): string {
  return `bucket-${randomString(12, '0123456789abcdefghijklmnopqrstuvwxyz')}`;
}

/** Sets the record from a full desired state: what the state omits returns to the default. */
function applyDesired(record: BucketRecord, desired: ResourceModel): void {
  const versioning = (desired.VersioningConfiguration as { Status?: string } | undefined)?.Status;
  if (versioning === 'Enabled' || versioning === 'Suspended') record.versioning = versioning;
  // S3 never returns a bucket to unversioned: dropping the property suspends it.
  else if (record.versioning !== undefined) record.versioning = 'Suspended';
  const tags = desired.Tags as Tag[] | undefined;
  if (tags && tags.length > 0) record.tags = tags.map(({ Key, Value }) => ({ Key, Value }));
  else delete record.tags;
  record.encryption = encryptionFrom(desired.BucketEncryption) ?? structuredClone(DEFAULT_ENCRYPTION);
  record.publicAccessBlock = {
    ...DEFAULT_PUBLIC_ACCESS_BLOCK,
    ...(desired.PublicAccessBlockConfiguration as Partial<PublicAccessBlock> | undefined),
  };
  const other = Object.entries(desired).filter(([key]) => !MODELLED.has(key) && !READ_ONLY.has(key));
  if (other.length > 0) record.otherProperties = structuredClone(Object.fromEntries(other));
  else delete record.otherProperties;
}

interface EncryptionConfiguration {
  ServerSideEncryptionConfiguration?: Array<{
    ServerSideEncryptionByDefault?: { SSEAlgorithm?: string; KMSMasterKeyID?: string };
    BucketKeyEnabled?: boolean;
  }>;
}

function encryptionFrom(value: unknown): EncryptionRule[] | undefined {
  const rules = (value as EncryptionConfiguration | undefined)?.ServerSideEncryptionConfiguration;
  if (!rules || rules.length === 0) return undefined;
  return rules.map((rule) => ({
    algorithm: rule.ServerSideEncryptionByDefault?.SSEAlgorithm ?? 'AES256',
    ...(rule.ServerSideEncryptionByDefault?.KMSMasterKeyID !== undefined
      ? { kmsKeyId: rule.ServerSideEncryptionByDefault.KMSMasterKeyID }
      : {}),
    ...(rule.BucketKeyEnabled !== undefined ? { bucketKeyEnabled: rule.BucketKeyEnabled } : {}),
  }));
}

/** The bucket as Cloud Control's AWS::S3::Bucket handler describes it. */
export function bucketModel(record: BucketRecord): ResourceModel {
  const { name, region } = record;
  return {
    ...structuredClone(record.otherProperties ?? {}),
    BucketName: name,
    Arn: `arn:aws:s3:::${name}`,
    DomainName: `${name}.s3.amazonaws.com`,
    RegionalDomainName: `${name}.s3.${region}.amazonaws.com`,
    DualStackDomainName: `${name}.s3.dualstack.${region}.amazonaws.com`,
    WebsiteURL: `http://${name}.s3-website-${region}.amazonaws.com`,
    ...(record.versioning ? { VersioningConfiguration: { Status: record.versioning } } : {}),
    ...(record.tags ? { Tags: record.tags.map((tag) => ({ ...tag })) } : {}),
    BucketEncryption: {
      ServerSideEncryptionConfiguration: record.encryption.map((rule) => ({
        ServerSideEncryptionByDefault: {
          SSEAlgorithm: rule.algorithm,
          ...(rule.kmsKeyId !== undefined ? { KMSMasterKeyID: rule.kmsKeyId } : {}),
        },
        BucketKeyEnabled: rule.bucketKeyEnabled ?? false,
      })),
    },
    ...(record.publicAccessBlock ? { PublicAccessBlockConfiguration: { ...record.publicAccessBlock } } : {}),
  };
}

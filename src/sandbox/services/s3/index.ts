import { restXmlCodec } from '../../protocols/rest-xml.js';
import type { InventoryEntry, ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import * as bucketConfig from './bucket-config-ops.js';
import * as buckets from './bucket-ops.js';
import { bucketResourceHandler } from './bucket-resource.js';
import { SUBRESOURCE_HANDLERS } from './bucket-subresource-ops.js';
import type { S3Handler } from './call.js';
import { verifyPayloadDigests } from './checksums.js';
import { scheduleLifecycle } from './lifecycle.js';
import * as lists from './list-ops.js';
import * as deletes from './object-delete.js';
import * as multipart from './multipart-ops.js';
import * as objects from './object-ops.js';
import { isMutatingS3Operation, s3OperationName, s3Target } from './operations.js';
import { s3ObjectReader } from '../../ports/index.js';
import { objectReader } from './object-reader.js';
import { s3Errors } from './s3-errors.js';
import { S3Store } from './store.js';

const HANDLERS: Record<string, S3Handler> = {
  ListBuckets: buckets.listBuckets,
  CreateBucket: buckets.createBucket,
  HeadBucket: buckets.headBucket,
  DeleteBucket: buckets.deleteBucket,
  GetBucketLocation: buckets.getBucketLocation,
  PutBucketVersioning: bucketConfig.putBucketVersioning,
  GetBucketVersioning: bucketConfig.getBucketVersioning,
  PutBucketEncryption: bucketConfig.putBucketEncryption,
  GetBucketEncryption: bucketConfig.getBucketEncryption,
  DeleteBucketEncryption: bucketConfig.deleteBucketEncryption,
  PutPublicAccessBlock: bucketConfig.putPublicAccessBlock,
  GetPublicAccessBlock: bucketConfig.getPublicAccessBlock,
  DeletePublicAccessBlock: bucketConfig.deletePublicAccessBlock,
  PutBucketPolicy: bucketConfig.putBucketPolicy,
  GetBucketPolicy: bucketConfig.getBucketPolicy,
  DeleteBucketPolicy: bucketConfig.deleteBucketPolicy,
  PutBucketTagging: bucketConfig.putBucketTagging,
  GetBucketTagging: bucketConfig.getBucketTagging,
  DeleteBucketTagging: bucketConfig.deleteBucketTagging,
  ListObjects: lists.listObjects,
  ListObjectsV2: lists.listObjectsV2,
  ListObjectVersions: lists.listObjectVersions,
  PutObject: objects.putObject,
  GetObject: objects.getObject,
  HeadObject: objects.headObject,
  CopyObject: objects.copyObject,
  DeleteObject: deletes.deleteObject,
  DeleteObjects: deletes.deleteObjects,
  CreateMultipartUpload: multipart.createMultipartUpload,
  UploadPart: multipart.uploadPart,
  CompleteMultipartUpload: multipart.completeMultipartUpload,
  AbortMultipartUpload: multipart.abortMultipartUpload,
  ...SUBRESOURCE_HANDLERS,
};

/** S3 over REST-XML, path style (and `bucket.localhost` virtual hosts). */
export const createS3Service: ServiceModuleFactory = async (context) => {
  const store = await S3Store.load(context.storage);
  context.resources.register('AWS::S3::Bucket', bucketResourceHandler(store, context.foreignBuckets));
  s3ObjectReader.expose(context, objectReader(store));
  scheduleLifecycle(context.clock, store);
  const module: ServiceModule = {
    name: 's3',
    codec: restXmlCodec,
    operation: s3OperationName,
    isMutating: isMutatingS3Operation,
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw s3Errors.notImplemented();
      verifyPayloadDigests(request.headers, request.body);
      return handler({ request, store, context, ...s3Target(request) });
    },
    inventory() {
      const entries: InventoryEntry[] = store.bucketNames().map((name) => {
        const state = store.bucket(name)!;
        const { objects: objectCount, versions: versionCount } = store.objectCounts(state);
        const { region, createdAt, versioning } = state.record;
        return {
          id: name,
          region,
          createdAt,
          versioning: versioning ?? 'Disabled',
          objectCount,
          versionCount,
        };
      });
      // A bucket's policy is a resource of its own in a template, named by its bucket.
      const policies = store
        .bucketNames()
        .filter((name) => store.bucket(name)!.record.policy !== undefined)
        .map((name) => ({ id: name }));
      return { 'AWS::S3::Bucket': entries, 'AWS::S3::BucketPolicy': policies };
    },
  };
  return module;
};

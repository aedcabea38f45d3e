import {
  DeleteBucketCorsCommand,
  DeleteBucketEncryptionCommand,
  DeleteBucketLifecycleCommand,
  DeleteBucketOwnershipControlsCommand,
  DeleteBucketTaggingCommand,
  DeletePublicAccessBlockCommand,
  GetBucketCorsCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  PutBucketCorsCommand,
  PutBucketEncryptionCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketNotificationConfigurationCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutPublicAccessBlockCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { awsErrorCode } from '../../aws/error-class.js';
import type { JsonObject } from '../provider.js';
import { tagList, tagMap } from '../tags.js';
import { cfnLifecycleRule, LIFECYCLE_SHAPE, lifecycleRule } from './lifecycle.js';
import { cfnNotification, NOTIFICATION_SHAPE, notificationConfiguration } from './notification.js';
import { bool, defined, fitsShape, int, listOf, objectOf, text, type Shape } from './shapes.js';

/**
 * One AWS::S3::Bucket configuration property: the shape this provider maps (anything
 * outside it is reported uncovered, so the bucket goes through Cloud Control instead of
 * losing it), how to apply it, how to remove it when the template drops it, and how to
 * read it back in CloudFormation's shape (undefined when the bucket has none).
 */
export interface BucketConfig {
  property: string;
  shape: Shape;
  put(client: S3Client, bucket: string, value: unknown): Promise<unknown>;
  remove(client: S3Client, bucket: string): Promise<unknown>;
  read(client: S3Client, bucket: string): Promise<unknown>;
}

/** A Get that answers "none configured" with an error code reads as undefined. */
async function unlessMissing<T>(codes: string[], get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (error) {
    if (codes.includes(awsErrorCode(error) ?? '')) return undefined;
    throw error;
  }
}

export const BUCKET_CONFIGS: readonly BucketConfig[] = [
  {
    property: 'VersioningConfiguration',
    shape: { Status: true },
    put: (client, Bucket, value) =>
      client.send(
        new PutBucketVersioningCommand({
          Bucket,
          VersioningConfiguration: { Status: String(objectOf(value).Status) as 'Enabled' | 'Suspended' },
        }),
      ),
    // A bucket never returns to unversioned; CloudFormation suspends it.
    remove: (client, Bucket) =>
      client.send(
        new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Suspended' } }),
      ),
    read: async (client, Bucket) => {
      const { Status } = await client.send(new GetBucketVersioningCommand({ Bucket }));
      return Status ? { Status } : undefined;
    },
  },
  {
    property: 'BucketEncryption',
    shape: {
      ServerSideEncryptionConfiguration: {
        BucketKeyEnabled: true,
        ServerSideEncryptionByDefault: { SSEAlgorithm: true, KMSMasterKeyID: true },
      },
    },
    put: (client, Bucket, value) =>
      client.send(
        new PutBucketEncryptionCommand({
          Bucket,
          ServerSideEncryptionConfiguration: {
            Rules: listOf(objectOf(value).ServerSideEncryptionConfiguration).map((rule) => {
              const byDefault = objectOf(rule.ServerSideEncryptionByDefault);
              return defined({
                BucketKeyEnabled: bool(rule.BucketKeyEnabled),
                ApplyServerSideEncryptionByDefault: defined({
                  SSEAlgorithm: String(byDefault.SSEAlgorithm) as 'AES256',
                  KMSMasterKeyID: text(byDefault.KMSMasterKeyID),
                }),
              });
            }),
          },
        }),
      ),
    // Deleting restores SSE-S3, the default every bucket has.
    remove: (client, Bucket) => client.send(new DeleteBucketEncryptionCommand({ Bucket })),
    read: async (client, Bucket) => {
      const result = await unlessMissing(['ServerSideEncryptionConfigurationNotFoundError'], () =>
        client.send(new GetBucketEncryptionCommand({ Bucket })),
      );
      const rules = result?.ServerSideEncryptionConfiguration?.Rules ?? [];
      return rules.length === 0
        ? undefined
        : {
            ServerSideEncryptionConfiguration: rules.map((rule) =>
              defined({
                BucketKeyEnabled: rule.BucketKeyEnabled,
                ServerSideEncryptionByDefault: defined({ ...rule.ApplyServerSideEncryptionByDefault }),
              }),
            ),
          };
    },
  },
  {
    property: 'PublicAccessBlockConfiguration',
    shape: {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    },
    put: (client, Bucket, value) => {
      const block = objectOf(value);
      return client.send(
        new PutPublicAccessBlockCommand({
          Bucket,
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: bool(block.BlockPublicAcls) ?? false,
            BlockPublicPolicy: bool(block.BlockPublicPolicy) ?? false,
            IgnorePublicAcls: bool(block.IgnorePublicAcls) ?? false,
            RestrictPublicBuckets: bool(block.RestrictPublicBuckets) ?? false,
          },
        }),
      );
    },
    remove: (client, Bucket) => client.send(new DeletePublicAccessBlockCommand({ Bucket })),
    read: async (client, Bucket) =>
      (
        await unlessMissing(['NoSuchPublicAccessBlockConfiguration'], () =>
          client.send(new GetPublicAccessBlockCommand({ Bucket })),
        )
      )?.PublicAccessBlockConfiguration,
  },
  {
    property: 'LifecycleConfiguration',
    shape: LIFECYCLE_SHAPE,
    put: (client, Bucket, value) =>
      client.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket,
          LifecycleConfiguration: { Rules: listOf(objectOf(value).Rules).map(lifecycleRule) },
        }),
      ),
    remove: (client, Bucket) => client.send(new DeleteBucketLifecycleCommand({ Bucket })),
    read: async (client, Bucket) => {
      const result = await unlessMissing(['NoSuchLifecycleConfiguration'], () =>
        client.send(new GetBucketLifecycleConfigurationCommand({ Bucket })),
      );
      return result?.Rules ? { Rules: result.Rules.map(cfnLifecycleRule) } : undefined;
    },
  },
  {
    property: 'CorsConfiguration',
    shape: {
      CorsRules: {
        AllowedHeaders: true,
        AllowedMethods: true,
        AllowedOrigins: true,
        ExposedHeaders: true,
        Id: true,
        MaxAge: true,
      },
    },
    put: (client, Bucket, value) =>
      client.send(
        new PutBucketCorsCommand({
          Bucket,
          CORSConfiguration: {
            CORSRules: listOf(objectOf(value).CorsRules).map((rule) =>
              defined({
                ID: text(rule.Id),
                AllowedHeaders: rule.AllowedHeaders as string[] | undefined,
                AllowedMethods: rule.AllowedMethods as string[],
                AllowedOrigins: rule.AllowedOrigins as string[],
                ExposeHeaders: rule.ExposedHeaders as string[] | undefined,
                MaxAgeSeconds: int(rule.MaxAge),
              }),
            ),
          },
        }),
      ),
    remove: (client, Bucket) => client.send(new DeleteBucketCorsCommand({ Bucket })),
    read: async (client, Bucket) => {
      const result = await unlessMissing(['NoSuchCORSConfiguration'], () =>
        client.send(new GetBucketCorsCommand({ Bucket })),
      );
      return result?.CORSRules
        ? {
            CorsRules: result.CORSRules.map((rule) =>
              defined({
                Id: rule.ID,
                AllowedHeaders: rule.AllowedHeaders,
                AllowedMethods: rule.AllowedMethods,
                AllowedOrigins: rule.AllowedOrigins,
                ExposedHeaders: rule.ExposeHeaders,
                MaxAge: rule.MaxAgeSeconds,
              }),
            ),
          }
        : undefined;
    },
  },
  {
    property: 'OwnershipControls',
    shape: { Rules: { ObjectOwnership: true } },
    put: (client, Bucket, value) =>
      client.send(
        new PutBucketOwnershipControlsCommand({
          Bucket,
          OwnershipControls: {
            Rules: listOf(objectOf(value).Rules).map((rule) => ({
              ObjectOwnership: String(rule.ObjectOwnership) as 'BucketOwnerEnforced',
            })),
          },
        }),
      ),
    remove: (client, Bucket) => client.send(new DeleteBucketOwnershipControlsCommand({ Bucket })),
    read: async (client, Bucket) => {
      const result = await unlessMissing(['OwnershipControlsNotFoundError'], () =>
        client.send(new GetBucketOwnershipControlsCommand({ Bucket })),
      );
      return result?.OwnershipControls?.Rules ? { Rules: result.OwnershipControls.Rules } : undefined;
    },
  },
  {
    property: 'NotificationConfiguration',
    shape: NOTIFICATION_SHAPE,
    put: (client, Bucket, value) =>
      client.send(
        new PutBucketNotificationConfigurationCommand({
          Bucket,
          NotificationConfiguration: notificationConfiguration(objectOf(value)),
        }),
      ),
    // An empty configuration is how S3 removes every notification.
    remove: (client, Bucket) =>
      client.send(new PutBucketNotificationConfigurationCommand({ Bucket, NotificationConfiguration: {} })),
    read: async (client, Bucket) =>
      cfnNotification(await client.send(new GetBucketNotificationConfigurationCommand({ Bucket }))),
  },
  {
    property: 'Tags',
    shape: { Key: true, Value: true },
    put: (client, Bucket, value) =>
      client.send(new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet: tagList(tagMap(value)) } })),
    remove: (client, Bucket) => client.send(new DeleteBucketTaggingCommand({ Bucket })),
    read: async (client, Bucket) => {
      const result = await unlessMissing(['NoSuchTagSet'], () =>
        client.send(new GetBucketTaggingCommand({ Bucket })),
      );
      return result?.TagSet && result.TagSet.length > 0 ? result.TagSet : undefined;
    },
  },
];

/** The configuration properties of a template whose values this provider cannot map. */
export function unmappedConfigurations(properties: JsonObject): string[] {
  return BUCKET_CONFIGS.filter(
    (config) =>
      properties[config.property] !== undefined && !fitsShape(properties[config.property], config.shape),
  ).map((config) => config.property);
}

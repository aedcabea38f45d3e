import { GetObjectCommand } from '@aws-sdk/client-s3';
import { deployedStackState } from '../deployed-state.js';
import type { StackArtifact } from '../../assembly/index.js';
import type { AwsClients } from '../../aws/index.js';
import { awsErrorCode } from '../../aws/error-class.js';
import type { StateBackend } from '../../state/index.js';
import { contentTypeOf, type BucketReader } from './bucket-source.js';

/** The deployed bucket of a logical ID as a reader, or undefined when the stack (or the bucket) is not deployed. */
export type DeployedBucketReader = (
  stack: StackArtifact,
  bucketId: string,
) => Promise<{ bucketName: string; read: BucketReader } | undefined>;

export interface DeployedBucketInput {
  clients: AwsClients;
  backend: () => Promise<StateBackend>;
  /** Where an environment-agnostic stack is deployed: the caller's region. */
  region: string;
}

/**
 * A bucket as deployed: its name from cdkd's state of the stack, its objects through S3
 * GetObject with the caller's credentials (a missing key, or one the caller may not read
 * without s3:ListBucket, is `missing`).
 */
export function deployedBucketReader(input: DeployedBucketInput): DeployedBucketReader {
  return async (stack, bucketId) => {
    const { region, state } = await deployedStackState(input.backend, stack, input.region);
    const bucketName = state?.document.resources[bucketId]?.physicalId;
    if (!bucketName) return undefined;
    const s3 = await input.clients.s3(region);
    return {
      bucketName,
      read: async (key) => {
        try {
          const object = await s3.send(new GetObjectCommand({ Bucket: bucketName, Key: key }));
          return {
            body: Buffer.from(await object.Body!.transformToByteArray()),
            contentType: object.ContentType ?? contentTypeOf(key),
          };
        } catch (error) {
          const code = awsErrorCode(error);
          if (code === 'NoSuchKey' || code === 'AccessDenied' || code === 'NotFound') return 'missing';
          throw error;
        }
      },
    };
  };
}

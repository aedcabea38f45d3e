import {
  DeleteBucketPolicyCommand,
  GetBucketPolicyCommand,
  PutBucketPolicyCommand,
} from '@aws-sdk/client-s3';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { jsonText } from '../property-values.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const BUCKET_POLICY_TYPE = 'AWS::S3::BucketPolicy';

const PROPERTIES = ['Bucket', 'PolicyDocument'];
const isGone = errorCodeIn('NoSuchBucket', 'NoSuchBucketPolicy');

/** AWS::S3::BucketPolicy: the bucket's policy; the physical id (and Ref) is the bucket name. */
export class BucketPolicyProvider extends SdkProvider {
  /** A bucket holds one policy, so moving it to another bucket is a new resource. */
  readonly description: ProviderDescription = {
    type: BUCKET_POLICY_TYPE,
    covered: PROPERTIES,
    replaces: ['Bucket'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const bucket = String(request.properties.Bucket);
    await this.put(bucket, request.properties.PolicyDocument, context);
    // PutBucketPolicy answers nothing to observe.
    return { physicalId: bucket, attributes: {} };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await this.put(request.physicalId, request.properties.PolicyDocument, context);
    return { physicalId: request.physicalId, attributes: {} };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await context.clients.s3(context.region);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteBucketPolicyCommand({ Bucket: request.physicalId }), {
          abortSignal: context.signal,
        }),
      isGone,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await context.clients.s3(context.region);
    try {
      const { Policy } = await client.send(new GetBucketPolicyCommand({ Bucket: request.physicalId }));
      return {
        properties: { Bucket: request.physicalId, PolicyDocument: JSON.parse(Policy ?? '{}') },
        attributes: {},
      };
    } catch (error) {
      if (isGone(error)) return undefined;
      throw error;
    }
  }

  private async put(bucket: string, document: unknown, context: ProviderContext): Promise<void> {
    const client = await context.clients.s3(context.region);
    await client.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: jsonText(document) }), {
      abortSignal: context.signal,
    });
  }
}

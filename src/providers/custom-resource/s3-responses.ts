import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { classifyAwsError } from '../../aws/error-class.js';
import type { ResponseRead, ResponseStore } from './ports.js';

/**
 * Responses in the state bucket under `keyPrefix`, with an S3 client built for the bucket's
 * own region so the pre-signed URL names that region (spec 003, "Cross-region state bucket").
 */
export function s3Responses(s3: S3Client, bucket: string, keyPrefix: string): ResponseStore {
  const key = (requestId: string) => `${keyPrefix}${requestId}`;
  return {
    async prepare(requestId, expiresInSeconds) {
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key(requestId),
          Body: placeholder(requestId),
          ContentType: 'application/json',
        }),
      );
      // S3 caps a SigV4 pre-signed URL at seven days.
      const expiresIn = Math.min(expiresInSeconds, 7 * 24 * 3600);
      const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: bucket, Key: key(requestId) }), {
        expiresIn,
      });
      return { key: key(requestId), url };
    },
    async read(requestId): Promise<ResponseRead> {
      try {
        const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key(requestId) }));
        const body = (await response.Body?.transformToByteArray()) ?? new Uint8Array();
        return Buffer.from(body).equals(placeholder(requestId))
          ? { kind: 'pending' }
          : { kind: 'answered', body };
      } catch (error) {
        if (classifyAwsError(error) === 'not-found') return { kind: 'missing' };
        throw error;
      }
    },
    async discard(requestId) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key(requestId) }));
    },
  };
}

/** What the key holds until the handler answers: no handler's response reads like it. */
function placeholder(requestId: string): Buffer {
  return Buffer.from(JSON.stringify({ cdkd: 'awaiting the handler response', RequestId: requestId }), 'utf8');
}

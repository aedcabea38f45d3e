import { createHash } from 'node:crypto';
import { s3ObjectReader } from '../../ports/index.js';
import type { LambdaCall } from './call.js';
import { lambdaErrors } from './lambda-errors.js';
import type { CodeRecord } from './model.js';

const S3_MESSAGES: Record<string, string> = {
  NoSuchBucket: 'The specified bucket does not exist',
  NoSuchKey: 'The specified key does not exist.',
  NoSuchVersion: 'The specified version does not exist.',
};

/**
 * The deployment package a CreateFunction / UpdateFunctionCode / PublishLayerVersion names:
 * an inline base64 `ZipFile`, or an object in the sandbox's S3, which must exist (Lambda
 * copies it at call time).
 */
export async function resolveCode(call: LambdaCall, code: Record<string, unknown>): Promise<CodeRecord> {
  if (typeof code.ZipFile === 'string') {
    const bytes = Buffer.from(code.ZipFile, 'base64');
    if (bytes.length === 0) throw lambdaErrors.invalid('Uploaded file must be a non-empty zip');
    const sums = digest(bytes);
    return { ...sums, source: 'zip', blob: await keep(call, sums.sha256, bytes) };
  }
  const bucket = code.S3Bucket;
  const key = code.S3Key;
  if (typeof bucket !== 'string' || typeof key !== 'string') {
    throw lambdaErrors.invalid('Please provide a source for function code.');
  }
  const version = typeof code.S3ObjectVersion === 'string' ? code.S3ObjectVersion : undefined;
  const reader = s3ObjectReader.of(call.context);
  const body = reader ? await reader.read(bucket, key, version) : 'NoSuchBucket';
  if (typeof body === 'string') {
    throw lambdaErrors.invalid(
      `Error occurred while GetObject. S3 Error Code: ${body}. S3 Error Message: ${S3_MESSAGES[body]}`,
    );
  }
  const sums = digest(body);
  return {
    ...sums,
    source: { bucket, key, ...(version ? { version } : {}) },
    blob: await keep(call, sums.sha256, body),
  };
}

export const CODE_BLOBS = 'lambda/code';

/**
 * Lambda copies the package when it is named, so a later change to the S3 object does not
 * change the function. A package some function or layer already holds is shared, not copied
 * again (a redeploy names the same asset each time).
 */
async function keep(call: LambdaCall, sha256: string, bytes: Buffer): Promise<string> {
  const held = [
    ...call.store
      .allFunctions()
      .flatMap((record) => [record.latest, ...record.versions.map((v) => v.config)]),
    ...call.store.allLayerVersions(),
  ].find((holder) => holder.code.sha256 === sha256 && holder.code.blob !== undefined);
  return held?.code.blob ?? call.context.storage.putBlob(CODE_BLOBS, bytes);
}

function digest(bytes: Buffer): { sha256: string; size: number } {
  return { sha256: createHash('sha256').update(bytes).digest('base64'), size: bytes.length };
}

import { SandboxError } from '../../errors.js';
import { xmlResult } from '../../protocols/rest-xml.js';
import { el, optionalEl, parseXml, text } from '../../xml.js';
import { assertValidBucketName } from './bucket-name.js';
import { canonicalUserId, emptyResponse, requireBucket, type S3Handler } from './call.js';
import { DEFAULT_ENCRYPTION, DEFAULT_PUBLIC_ACCESS_BLOCK } from './model.js';
import { s3Errors } from './s3-errors.js';

export const createBucket: S3Handler = async (call) => {
  const { bucket, request, store, context } = call;
  if (context.foreignBuckets.has(bucket)) {
    throw new SandboxError(
      'BucketAlreadyExists',
      'The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.',
      409,
      { fields: { BucketName: bucket } },
    );
  }
  assertValidBucketName(bucket);
  const constraint =
    request.body.length > 0
      ? (text(parseXml(request.body)['CreateBucketConfiguration'], 'LocationConstraint') ?? '')
      : '';
  const region = locationRegion(constraint, request.region);
  const existing = store.bucket(bucket);
  if (existing) {
    // AWS keeps a legacy quirk: re-creating your own bucket in us-east-1 succeeds.
    if (existing.record.region === 'us-east-1' && request.region === 'us-east-1') {
      return emptyResponse(200, { location: `/${bucket}` });
    }
    throw new SandboxError(
      'BucketAlreadyOwnedByYou',
      'Your previous request to create the named bucket succeeded and you already own it.',
      409,
      { fields: { BucketName: bucket } },
    );
  }
  await store.createBucket({
    name: bucket,
    region,
    locationConstraint: constraint,
    createdAt: new Date().toISOString(),
    encryption: structuredClone(DEFAULT_ENCRYPTION),
    publicAccessBlock: { ...DEFAULT_PUBLIC_ACCESS_BLOCK },
  });
  return emptyResponse(200, { location: `/${bucket}` });
};

/**
 * The region a LocationConstraint puts a bucket in. The us-east-1 endpoint accepts any
 * other region's constraint; a regional endpoint only its own.
 */
function locationRegion(constraint: string, requestRegion: string): string {
  if (constraint === 'us-east-1') {
    throw new SandboxError(
      'InvalidLocationConstraint',
      'The specified location-constraint is not valid',
      400,
      {
        fields: { LocationConstraint: constraint },
      },
    );
  }
  const region = constraint === '' ? 'us-east-1' : constraint === 'EU' ? 'eu-west-1' : constraint;
  if (requestRegion !== 'us-east-1' && region !== requestRegion) {
    const named = constraint === '' ? 'unspecified' : constraint;
    throw new SandboxError(
      'IllegalLocationConstraintException',
      `The ${named} location constraint is incompatible for the region specific endpoint this request was sent to.`,
      400,
    );
  }
  return region;
}

export const headBucket: S3Handler = async (call) => {
  const state = requireBucket(call);
  return emptyResponse(200, {
    'x-amz-bucket-region': state.record.region,
    'x-amz-access-point-alias': 'false',
  });
};

export const deleteBucket: S3Handler = async (call) => {
  const state = requireBucket(call);
  if (state.objects.size > 0) {
    const versioned = state.record.versioning !== undefined;
    throw new SandboxError(
      'BucketNotEmpty',
      versioned
        ? 'The bucket you tried to delete is not empty. You must delete all versions in the bucket.'
        : 'The bucket you tried to delete is not empty',
      409,
      { fields: { BucketName: call.bucket } },
    );
  }
  await call.store.deleteBucket(call.bucket);
  return emptyResponse(204);
};

export const listBuckets: S3Handler = async ({ request, store }) => {
  const prefix = request.query.get('prefix') ?? '';
  const regionFilter = request.query.get('bucket-region');
  const maxBucketsParam = request.query.get('max-buckets') ?? '10000';
  const maxBuckets = Number(maxBucketsParam);
  if (!/^\d+$/.test(maxBucketsParam) || maxBuckets < 1 || maxBuckets > 10000) {
    throw s3Errors.invalidArgument(
      'Invalid max-buckets: must be between 1 and 10000',
      'max-buckets',
      maxBucketsParam,
    );
  }
  const after = decodeToken(request.query.get('continuation-token'));
  const matching = store
    .bucketNames()
    .filter((name) => name.startsWith(prefix) && (after === undefined || name > after))
    .map((name) => store.bucket(name)!.record)
    .filter((record) => regionFilter === null || record.region === regionFilter);
  const page = matching.slice(0, maxBuckets);
  const truncated = matching.length > page.length;
  const owner = canonicalUserId(request.accountId);
  return xmlResult('ListAllMyBucketsResult', [
    el('Owner', [el('ID', owner), el('DisplayName', 'sandbox')]),
    el(
      'Buckets',
      page.map((record) =>
        el('Bucket', [
          el('Name', record.name),
          el('CreationDate', record.createdAt),
          el('BucketRegion', record.region),
        ]),
      ),
    ),
    truncated ? el('ContinuationToken', encodeToken(page[page.length - 1]!.name)) : undefined,
    optionalEl('Prefix', request.query.get('prefix') ?? undefined),
  ]);
};

export const getBucketLocation: S3Handler = async (call) => {
  const state = requireBucket(call, call.bucket, { anyRegion: true });
  return xmlResult('LocationConstraint', state.record.locationConstraint);
};

export function encodeToken(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64url');
}

export function decodeToken(token: string | null): string | undefined {
  if (token === null) return undefined;
  const value = Buffer.from(token, 'base64url').toString('utf8');
  if (encodeToken(value) !== token)
    throw s3Errors.invalidArgument(
      'The continuation token provided is incorrect',
      'continuation-token',
      token,
    );
  return value;
}

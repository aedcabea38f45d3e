import { SandboxError } from '../../errors.js';
import { xmlResult } from '../../protocols/rest-xml.js';
import { children, el, malformedXml, optionalEl, parseXml, text, type XmlValue } from '../../xml.js';
import { emptyResponse, requireBucket, type S3Call, type S3Handler } from './call.js';
import { DEFAULT_ENCRYPTION, type EncryptionRule, type PublicAccessBlock, type Tag } from './model.js';

/** Bucket subresource configuration: versioning, encryption, public access block, policy, tags. */

export const putBucketVersioning: S3Handler = async (call) => {
  const state = requireBucket(call);
  requireIntegrityHeader(call);
  const status = text(parseXml(call.request.body)['VersioningConfiguration'], 'Status');
  if (status !== 'Enabled' && status !== 'Suspended') throw malformedXml();
  state.record.versioning = status;
  await call.store.saveBucket(state);
  return emptyResponse();
};

export const getBucketVersioning: S3Handler = async (call) => {
  const { versioning } = requireBucket(call).record;
  return xmlResult('VersioningConfiguration', [optionalEl('Status', versioning)]);
};

const SSE_ALGORITHMS = ['AES256', 'aws:kms', 'aws:kms:dsse'];

export const putBucketEncryption: S3Handler = async (call) => {
  const state = requireBucket(call);
  requireIntegrityHeader(call);
  const rules = children(parseXml(call.request.body)['ServerSideEncryptionConfiguration'], 'Rule').map(
    encryptionRule,
  );
  if (rules.length === 0) throw malformedXml();
  state.record.encryption = rules;
  await call.store.saveBucket(state);
  return emptyResponse();
};

function encryptionRule(rule: XmlValue): EncryptionRule {
  const byDefault = children(rule, 'ApplyServerSideEncryptionByDefault')[0];
  const algorithm = text(byDefault, 'SSEAlgorithm');
  if (algorithm === undefined || !SSE_ALGORITHMS.includes(algorithm)) throw malformedXml();
  const kmsKeyId = text(byDefault, 'KMSMasterKeyID');
  if (kmsKeyId !== undefined && algorithm === 'AES256') {
    throw new SandboxError(
      'InvalidArgument',
      'a KMSMasterKeyID is not applicable if the default sse algorithm is not aws:kms or aws:kms:dsse',
      400,
    );
  }
  const bucketKey = text(rule, 'BucketKeyEnabled');
  return {
    algorithm,
    kmsKeyId,
    bucketKeyEnabled: bucketKey === undefined ? undefined : bucketKey === 'true',
  };
}

export const getBucketEncryption: S3Handler = async (call) => {
  const { encryption } = requireBucket(call).record;
  return xmlResult(
    'ServerSideEncryptionConfiguration',
    encryption.map((rule) =>
      el('Rule', [
        el('ApplyServerSideEncryptionByDefault', [
          el('SSEAlgorithm', rule.algorithm),
          optionalEl('KMSMasterKeyID', rule.kmsKeyId),
        ]),
        el('BucketKeyEnabled', rule.bucketKeyEnabled ?? false),
      ]),
    ),
  );
};

/** Deleting the configuration restores the SSE-S3 default, as on AWS. */
export const deleteBucketEncryption: S3Handler = async (call) => {
  const state = requireBucket(call);
  state.record.encryption = structuredClone(DEFAULT_ENCRYPTION);
  await call.store.saveBucket(state);
  return emptyResponse(204);
};

const PAB_FIELDS = [
  'BlockPublicAcls',
  'IgnorePublicAcls',
  'BlockPublicPolicy',
  'RestrictPublicBuckets',
] as const;

export const putPublicAccessBlock: S3Handler = async (call) => {
  const state = requireBucket(call);
  requireIntegrityHeader(call);
  const config = parseXml(call.request.body)['PublicAccessBlockConfiguration'];
  if (config === undefined) throw malformedXml();
  const block = {} as PublicAccessBlock;
  for (const field of PAB_FIELDS) block[field] = text(config, field) === 'true';
  state.record.publicAccessBlock = block;
  await call.store.saveBucket(state);
  return emptyResponse();
};

export const getPublicAccessBlock: S3Handler = async (call) => {
  const block = requireBucket(call).record.publicAccessBlock;
  if (block === undefined) {
    throw new SandboxError(
      'NoSuchPublicAccessBlockConfiguration',
      'The public access block configuration was not found',
      404,
      { fields: { BucketName: call.bucket } },
    );
  }
  return xmlResult(
    'PublicAccessBlockConfiguration',
    PAB_FIELDS.map((field) => el(field, block[field])),
  );
};

export const deletePublicAccessBlock: S3Handler = async (call) => {
  const state = requireBucket(call);
  delete state.record.publicAccessBlock;
  await call.store.saveBucket(state);
  return emptyResponse(204);
};

export const putBucketPolicy: S3Handler = async (call) => {
  const state = requireBucket(call);
  const policy = call.request.body.toString('utf8');
  if (!isJsonObject(policy)) {
    throw new SandboxError(
      'MalformedPolicy',
      "Policies must be valid JSON and the first byte must be '{'",
      400,
    );
  }
  state.record.policy = policy;
  await call.store.saveBucket(state);
  return emptyResponse(204);
};

function isJsonObject(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const getBucketPolicy: S3Handler = async (call) => {
  const { policy } = requireBucket(call).record;
  if (policy === undefined) {
    throw new SandboxError('NoSuchBucketPolicy', 'The bucket policy does not exist', 404, {
      fields: { BucketName: call.bucket },
    });
  }
  return { status: 200, headers: { 'content-type': 'application/json' }, body: policy };
};

export const deleteBucketPolicy: S3Handler = async (call) => {
  const state = requireBucket(call);
  delete state.record.policy;
  await call.store.saveBucket(state);
  return emptyResponse(204);
};

export const putBucketTagging: S3Handler = async (call) => {
  const state = requireBucket(call);
  requireIntegrityHeader(call);
  const tagSet = children(parseXml(call.request.body)['Tagging'], 'TagSet')[0];
  const tags: Tag[] = children(tagSet, 'Tag').map((tag) => ({
    Key: text(tag, 'Key') ?? '',
    Value: text(tag, 'Value') ?? '',
  }));
  validateTags(tags);
  state.record.tags = tags;
  await call.store.saveBucket(state);
  return emptyResponse(204);
};

function validateTags(tags: Tag[]): void {
  if (new Set(tags.map((tag) => tag.Key)).size !== tags.length) {
    throw new SandboxError('InvalidTag', 'Cannot provide multiple Tags with the same key', 400);
  }
  if (tags.length > 50) throw new SandboxError('BadRequest', 'Object tags cannot be greater than 50', 400);
  for (const tag of tags) {
    if (tag.Key.length === 0 || tag.Key.length > 128 || tag.Value.length > 256) {
      throw new SandboxError('InvalidTag', 'The TagKey you have provided is invalid', 400);
    }
    if (tag.Key.startsWith('aws:')) {
      throw new SandboxError('InvalidTag', 'System tags cannot be added/updated by requester', 400);
    }
  }
}

export const getBucketTagging: S3Handler = async (call) => {
  const { tags } = requireBucket(call).record;
  if (tags === undefined) {
    throw new SandboxError('NoSuchTagSet', 'The TagSet does not exist', 404, {
      fields: { BucketName: call.bucket },
    });
  }
  return xmlResult('Tagging', [
    el(
      'TagSet',
      tags.map((tag) => el('Tag', [el('Key', tag.Key), el('Value', tag.Value)])),
    ),
  ]);
};

export const deleteBucketTagging: S3Handler = async (call) => {
  const state = requireBucket(call);
  delete state.record.tags;
  await call.store.saveBucket(state);
  return emptyResponse(204);
};

/** Operations whose body AWS refuses without an integrity header (Content-MD5 or a checksum). */
export function requireIntegrityHeader(call: S3Call): void {
  const headers = call.request.headers;
  if (headers['content-md5'] !== undefined) return;
  if (
    Object.keys(headers).some((name) => name.startsWith('x-amz-checksum-') && name !== 'x-amz-checksum-mode')
  )
    return;
  throw new SandboxError('InvalidRequest', 'Missing required header for this request: Content-MD5', 400);
}

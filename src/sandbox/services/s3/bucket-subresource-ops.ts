import { SandboxError } from '../../errors.js';
import type { SandboxRequest } from '../../request.js';
import { children, malformedXml, parseXml, text, XML_DECLARATION, type XmlValue } from '../../xml.js';
import { emptyResponse, requireBucket, type S3Call, type S3Handler } from './call.js';
import { requireIntegrityHeader } from './bucket-config-ops.js';

/**
 * Bucket configurations kept as the XML document the client sent (lifecycle, CORS,
 * ownership controls, notifications): validated as S3 validates them, returned on GET as
 * stored. Stored in `BucketRecord.documents` by subresource name.
 */

type Subresource = 'lifecycle' | 'cors' | 'ownershipControls' | 'notification';

const OPERATIONS: Record<Subresource, Partial<Record<string, string>>> = {
  lifecycle: {
    PUT: 'PutBucketLifecycleConfiguration',
    GET: 'GetBucketLifecycleConfiguration',
    DELETE: 'DeleteBucketLifecycle',
  },
  cors: { PUT: 'PutBucketCors', GET: 'GetBucketCors', DELETE: 'DeleteBucketCors' },
  ownershipControls: {
    PUT: 'PutBucketOwnershipControls',
    GET: 'GetBucketOwnershipControls',
    DELETE: 'DeleteBucketOwnershipControls',
  },
  notification: {
    PUT: 'PutBucketNotificationConfiguration',
    GET: 'GetBucketNotificationConfiguration',
  },
};

/** The operation a bucket request on one of these subresources names, if it is one. */
export function subresourceOperation(request: SandboxRequest): string | undefined {
  const subresource = (Object.keys(OPERATIONS) as Subresource[]).find((name) => request.query.has(name));
  return subresource ? (OPERATIONS[subresource][request.method] ?? undefined) : undefined;
}

const OWNERSHIPS = ['BucketOwnerPreferred', 'ObjectWriter', 'BucketOwnerEnforced'];
const CORS_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'];
/** What a new bucket has had since April 2023 when no ownership controls were set. */
const DEFAULT_OWNERSHIP =
  '<OwnershipControls xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><ObjectOwnership>BucketOwnerEnforced</ObjectOwnership></Rule></OwnershipControls>';

function notFound(code: string, message: string, bucket: string): SandboxError {
  return new SandboxError(code, message, 404, { fields: { BucketName: bucket } });
}

async function store(call: S3Call, subresource: Subresource, document: string | undefined): Promise<void> {
  const state = requireBucket(call);
  const documents = { ...state.record.documents };
  if (document === undefined) delete documents[subresource];
  else documents[subresource] = document;
  state.record.documents = documents;
  await call.store.saveBucket(state);
}

function documentResponse(body: string) {
  return { status: 200, headers: { 'content-type': 'application/xml' }, body: XML_DECLARATION + body };
}

/** The request's XML without its declaration, after checking the root element is `root`. */
function body(call: S3Call, root: string): { xml: string; node: XmlValue } {
  const parsed = parseXml(call.request.body);
  const node = parsed[root];
  if (node === undefined) throw malformedXml();
  return { xml: call.request.body.toString('utf8').replace(/^<\?xml[^>]*\?>\s*/, ''), node };
}

export const putBucketLifecycleConfiguration: S3Handler = async (call) => {
  requireBucket(call);
  requireIntegrityHeader(call);
  const { xml, node } = body(call, 'LifecycleConfiguration');
  const rules = children(node, 'Rule');
  if (rules.length === 0 || rules.length > 1000) throw malformedXml();
  const ids = new Set<string>();
  for (const rule of rules) {
    const status = text(rule, 'Status');
    if (status !== 'Enabled' && status !== 'Disabled') throw malformedXml();
    const id = text(rule, 'ID');
    if (id !== undefined && ids.has(id)) {
      throw new SandboxError(
        'InvalidArgument',
        'Rule ID must be unique. Found same ID for more than one rule',
        400,
      );
    }
    if (id !== undefined) ids.add(id);
    const actions = [
      'Expiration',
      'Transition',
      'NoncurrentVersionExpiration',
      'NoncurrentVersionTransition',
      'AbortIncompleteMultipartUpload',
    ];
    if (!actions.some((action) => children(rule, action).length > 0)) {
      throw new SandboxError('InvalidRequest', 'At least one action needs to be specified in a rule', 400);
    }
    for (const expiration of children(rule, 'NoncurrentVersionExpiration'))
      checkNoncurrentExpiration(expiration);
  }
  await store(call, 'lifecycle', xml);
  return emptyResponse();
};

/**
 * NoncurrentDays and NewerNoncurrentVersions positive whole numbers. S3's documentation says up
 * to 100 versions are retained, but it accepts more (the CDK's own lifecycle integ test sets
 * 123), so a larger number is taken, not refused.
 */
function checkNoncurrentExpiration(expiration: XmlValue): void {
  const days = text(expiration, 'NoncurrentDays');
  if (days === undefined || !/^\d+$/.test(days) || Number(days) < 1) {
    throw new SandboxError(
      'InvalidArgument',
      "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer",
      400,
    );
  }
  const newer = text(expiration, 'NewerNoncurrentVersions');
  if (newer !== undefined && (!/^\d+$/.test(newer) || Number(newer) < 1)) {
    throw new SandboxError(
      'InvalidArgument',
      "'NewerNoncurrentVersions' for NoncurrentVersionExpiration action must be a positive integer",
      400,
    );
  }
}

export const getBucketLifecycleConfiguration: S3Handler = async (call) => {
  const document = requireBucket(call).record.documents?.lifecycle;
  if (document === undefined) {
    throw notFound('NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist', call.bucket);
  }
  return documentResponse(document);
};

export const deleteBucketLifecycle: S3Handler = async (call) => {
  await store(call, 'lifecycle', undefined);
  return emptyResponse(204);
};

export const putBucketCors: S3Handler = async (call) => {
  requireBucket(call);
  requireIntegrityHeader(call);
  const { xml, node } = body(call, 'CORSConfiguration');
  const rules = children(node, 'CORSRule');
  if (rules.length === 0 || rules.length > 100) throw malformedXml();
  for (const rule of rules) {
    const methods = children(rule, 'AllowedMethod').map(String);
    if (methods.length === 0 || children(rule, 'AllowedOrigin').length === 0) throw malformedXml();
    const unsupported = methods.find((method) => !CORS_METHODS.includes(method));
    if (unsupported !== undefined) {
      throw new SandboxError(
        'InvalidRequest',
        `Found unsupported HTTP method in CORS config. Unsupported method is ${unsupported}`,
        400,
      );
    }
  }
  await store(call, 'cors', xml);
  return emptyResponse();
};

export const getBucketCors: S3Handler = async (call) => {
  const document = requireBucket(call).record.documents?.cors;
  if (document === undefined) {
    throw notFound('NoSuchCORSConfiguration', 'The CORS configuration does not exist', call.bucket);
  }
  return documentResponse(document);
};

export const deleteBucketCors: S3Handler = async (call) => {
  await store(call, 'cors', undefined);
  return emptyResponse(204);
};

export const putBucketOwnershipControls: S3Handler = async (call) => {
  requireBucket(call);
  requireIntegrityHeader(call);
  const { xml, node } = body(call, 'OwnershipControls');
  const rules = children(node, 'Rule');
  if (rules.length !== 1 || !OWNERSHIPS.includes(text(rules[0], 'ObjectOwnership') ?? '')) {
    throw malformedXml();
  }
  await store(call, 'ownershipControls', xml);
  return emptyResponse();
};

/** A bucket never configured has the default; a deleted configuration is '' (none). */
export const getBucketOwnershipControls: S3Handler = async (call) => {
  const document = requireBucket(call).record.documents?.ownershipControls ?? DEFAULT_OWNERSHIP;
  if (document === '') {
    throw notFound(
      'OwnershipControlsNotFoundError',
      'The bucket ownership controls were not found',
      call.bucket,
    );
  }
  return documentResponse(document);
};

export const deleteBucketOwnershipControls: S3Handler = async (call) => {
  await store(call, 'ownershipControls', '');
  return emptyResponse(204);
};

const NOTIFICATION_TARGETS: Array<[string, string]> = [
  ['TopicConfiguration', 'Topic'],
  ['QueueConfiguration', 'Queue'],
  ['CloudFunctionConfiguration', 'CloudFunction'],
];

export const putBucketNotificationConfiguration: S3Handler = async (call) => {
  requireBucket(call);
  const { xml, node } = body(call, 'NotificationConfiguration');
  for (const [element, target] of NOTIFICATION_TARGETS) {
    for (const configuration of children(node, element)) {
      const events = children(configuration, 'Event').map(String);
      const arn = text(configuration, target);
      if (events.length === 0 || !arn?.startsWith('arn:')) throw malformedXml();
      if (events.some((event) => !event.startsWith('s3:'))) {
        throw new SandboxError('InvalidArgument', 'The event is not supported for notifications', 400);
      }
    }
  }
  await store(call, 'notification', xml);
  return emptyResponse();
};

/** A bucket without notifications answers an empty configuration, not an error. */
export const getBucketNotificationConfiguration: S3Handler = async (call) => {
  const document = requireBucket(call).record.documents?.notification;
  return documentResponse(
    document ?? '<NotificationConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"/>',
  );
};

export const SUBRESOURCE_HANDLERS: Record<string, S3Handler> = {
  PutBucketLifecycleConfiguration: putBucketLifecycleConfiguration,
  GetBucketLifecycleConfiguration: getBucketLifecycleConfiguration,
  DeleteBucketLifecycle: deleteBucketLifecycle,
  PutBucketCors: putBucketCors,
  GetBucketCors: getBucketCors,
  DeleteBucketCors: deleteBucketCors,
  PutBucketOwnershipControls: putBucketOwnershipControls,
  GetBucketOwnershipControls: getBucketOwnershipControls,
  DeleteBucketOwnershipControls: deleteBucketOwnershipControls,
  PutBucketNotificationConfiguration: putBucketNotificationConfiguration,
  GetBucketNotificationConfiguration: getBucketNotificationConfiguration,
};

import type { SandboxRequest } from '../request.js';

/** Signing names whose IAM service prefix differs. */
const PREFIX: Record<string, string> = {
  cloudcontrolapi: 'cloudformation',
  monitoring: 'cloudwatch',
  email: 'ses',
};

/** Operations IAM authorizes under another action's name. */
const RENAMED: Record<string, Record<string, string>> = {
  s3: {
    ListObjects: 'ListBucket',
    ListObjectsV2: 'ListBucket',
    HeadBucket: 'ListBucket',
    ListObjectVersions: 'ListBucketVersions',
    ListBuckets: 'ListAllMyBuckets',
    HeadObject: 'GetObject',
    CopyObject: 'PutObject',
    DeleteObjects: 'DeleteObject',
    CreateMultipartUpload: 'PutObject',
    UploadPart: 'PutObject',
    CompleteMultipartUpload: 'PutObject',
    ListParts: 'ListMultipartUploadParts',
    PutBucketEncryption: 'PutEncryptionConfiguration',
    GetBucketEncryption: 'GetEncryptionConfiguration',
    DeleteBucketEncryption: 'PutEncryptionConfiguration',
    PutPublicAccessBlock: 'PutBucketPublicAccessBlock',
    GetPublicAccessBlock: 'GetBucketPublicAccessBlock',
    DeletePublicAccessBlock: 'PutBucketPublicAccessBlock',
    DeleteBucketTagging: 'PutBucketTagging',
    PutBucketLifecycleConfiguration: 'PutLifecycleConfiguration',
    GetBucketLifecycleConfiguration: 'GetLifecycleConfiguration',
    PutBucketNotificationConfiguration: 'PutBucketNotification',
    GetBucketNotificationConfiguration: 'GetBucketNotification',
    RestoreObject: 'RestoreObject',
  },
  lambda: { Invoke: 'InvokeFunction', InvokeAsync: 'InvokeFunction' },
};

/**
 * The action IAM authorizes a call as, `service:Action`: the service's IAM prefix and the
 * operation (API Gateway's management API is authorized by HTTP method, `apigateway:POST`).
 */
export function requestAction(service: string, operation: string, request: SandboxRequest): string {
  if (service === 'apigateway') return `apigateway:${request.method}`;
  const prefix = PREFIX[service] ?? service;
  return `${prefix}:${RENAMED[service]?.[operation] ?? operation}`;
}

/** Calls IAM never refuses: who am I (STS answers it whatever the caller's policies say). */
export function needsNoPermission(service: string, operation: string): boolean {
  return service === 'sts' && operation === 'GetCallerIdentity';
}

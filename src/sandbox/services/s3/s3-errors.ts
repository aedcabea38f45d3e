import { SandboxError } from '../../errors.js';

/** S3's errors, with the messages and extra fields AWS returns. */
export const s3Errors = {
  noSuchBucket: (bucket: string) =>
    new SandboxError('NoSuchBucket', 'The specified bucket does not exist', 404, {
      fields: { BucketName: bucket },
    }),
  noSuchKey: (key: string, headers: Record<string, string> = {}) =>
    new SandboxError('NoSuchKey', 'The specified key does not exist.', 404, {
      fields: { Key: key },
      headers,
    }),
  noSuchVersion: (key: string, versionId: string) =>
    new SandboxError('NoSuchVersion', 'The specified version does not exist.', 404, {
      fields: { Key: key, VersionId: versionId },
    }),
  methodNotAllowed: (method: string, headers: Record<string, string>) =>
    new SandboxError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405, {
      fields: { Method: method, ResourceType: 'DeleteMarker' },
      headers,
    }),
  preconditionFailed: (condition: string) =>
    new SandboxError(
      'PreconditionFailed',
      'At least one of the pre-conditions you specified did not hold',
      412,
      {
        fields: { Condition: condition },
      },
    ),
  permanentRedirect: (bucket: string, region: string) =>
    new SandboxError(
      'PermanentRedirect',
      'The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint.',
      301,
      {
        fields: { Bucket: bucket, Endpoint: `s3.${region}.amazonaws.com` },
        headers: { 'x-amz-bucket-region': region },
      },
    ),
  accessDenied: () => new SandboxError('AccessDenied', 'Access Denied', 403),
  invalidArgument: (message: string, name: string, value: string) =>
    new SandboxError('InvalidArgument', message, 400, {
      fields: { ArgumentName: name, ArgumentValue: value },
    }),
  invalidRequest: (message: string) => new SandboxError('InvalidRequest', message, 400),
  notImplemented: () =>
    new SandboxError(
      'NotImplemented',
      'A header you provided implies functionality that is not implemented',
      501,
    ),
};

/**
 * One classification of SDK errors for every caller: retry schedules, "already
 * exists" adoption checks and user messages all key on these classes.
 */
export type AwsErrorClass =
  | 'throttling'
  | 'transient'
  | 'not-found'
  | 'already-exists'
  | 'precondition-failed'
  | 'access-denied'
  | 'validation'
  | 'unknown';

interface SdkErrorShape {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

const THROTTLING_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
]);

const TRANSIENT_CODES = new Set([
  'InternalError',
  'InternalFailure',
  'InternalServerError',
  'InternalServiceError',
  'InternalServiceException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EADDRNOTAVAIL',
]);

/** HTTP statuses the AWS SDK's own retry strategy treats as transient. */
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

const NOT_FOUND_CODES = new Set([
  'NotFound',
  'NoSuchKey',
  'NoSuchBucket',
  'NoSuchEntity',
  'NoSuchBucketPolicy',
  'NoSuchTagSet',
  'ResourceNotFoundException',
  'ResourceNotFound',
  'ParameterNotFound',
  'NotFoundException',
  'AWS.SimpleQueueService.NonExistentQueue',
  'QueueDoesNotExist',
]);

const ALREADY_EXISTS_CODES = new Set([
  'AlreadyExists',
  'AlreadyExistsException',
  'EntityAlreadyExists',
  'ResourceAlreadyExistsException',
  'ResourceConflictException',
  'ResourceExistsException',
  'ParameterAlreadyExists',
  'BucketAlreadyExists',
  'BucketAlreadyOwnedByYou',
  'QueueAlreadyExists',
  'QueueNameExists',
  'ResourceInUseException',
]);

const PRECONDITION_CODES = new Set(['PreconditionFailed', 'ConditionalCheckFailedException']);

const ACCESS_DENIED_CODES = new Set([
  'AccessDenied',
  'AccessDeniedException',
  'UnauthorizedOperation',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'ExpiredToken',
  'ExpiredTokenException',
  'SignatureDoesNotMatch',
  'AuthFailure',
]);

const VALIDATION_CODES = new Set([
  'ValidationError',
  'ValidationException',
  'InvalidParameterValue',
  'InvalidParameterValueException',
  'InvalidParameterException',
  'InvalidParameterCombination',
  'InvalidRequest',
  'InvalidArgument',
  'InvalidBucketName',
  'MalformedPolicyDocument',
  'MalformedPolicyDocumentException',
  'MalformedXML',
  'InvalidInput',
]);

/** The error's AWS code: the SDK puts it in `name`; older shapes use `Code` / `code`. */
export function awsErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const shape = error as SdkErrorShape;
  return shape.Code ?? shape.name ?? shape.code;
}

export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as SdkErrorShape).$metadata?.httpStatusCode;
}

export function classifyAwsError(error: unknown): AwsErrorClass {
  if (typeof error !== 'object' || error === null) return 'unknown';
  const code = awsErrorCode(error) ?? '';
  const networkCode = (error as SdkErrorShape).code ?? '';
  const status = httpStatusOf(error);
  if (THROTTLING_CODES.has(code) || (error as SdkErrorShape).$retryable?.throttling || status === 429) {
    return 'throttling';
  }
  if (PRECONDITION_CODES.has(code) || status === 412) return 'precondition-failed';
  if (NOT_FOUND_CODES.has(code)) return 'not-found';
  if (ALREADY_EXISTS_CODES.has(code)) return 'already-exists';
  if (ACCESS_DENIED_CODES.has(code)) return 'access-denied';
  if (VALIDATION_CODES.has(code)) return 'validation';
  if (TRANSIENT_CODES.has(code) || TRANSIENT_CODES.has(networkCode)) return 'transient';
  if (status !== undefined && TRANSIENT_STATUSES.has(status)) return 'transient';
  if (status === 404) return 'not-found';
  if (status === 403) return 'access-denied';
  if (status === 400) return 'validation';
  return 'unknown';
}

export function isAwsErrorClass(error: unknown, errorClass: AwsErrorClass): boolean {
  return classifyAwsError(error) === errorClass;
}

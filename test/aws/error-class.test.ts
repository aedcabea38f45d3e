import { describe, expect, it } from 'vitest';
import { classifyAwsError, type AwsErrorClass } from '../../src/aws/error-class.js';

function sdkError(name: string, status?: number, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status }, ...extra });
}

describe('classifyAwsError', () => {
  const rows: Array<[string, unknown, AwsErrorClass]> = [
    ['S3 SlowDown 503', sdkError('SlowDown', 503), 'throttling'],
    ['ThrottlingException 400', sdkError('ThrottlingException', 400), 'throttling'],
    ['HTTP 429 with an unknown code', sdkError('Whatever', 429), 'throttling'],
    ['SDK-marked throttling', sdkError('Odd', 400, { $retryable: { throttling: true } }), 'throttling'],
    ['InternalError 500', sdkError('InternalError', 500), 'transient'],
    ['unknown code with 502', sdkError('Odd', 502), 'transient'],
    ['unknown code with 504', sdkError('Odd', 504), 'transient'],
    ['network reset', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'transient'],
    ['EADDRNOTAVAIL under load', Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL' }), 'transient'],
    ['NoSuchKey', sdkError('NoSuchKey', 404), 'not-found'],
    ['HEAD 404 NotFound', sdkError('NotFound', 404), 'not-found'],
    ['IAM NoSuchEntity', sdkError('NoSuchEntity', 404), 'not-found'],
    ['unknown code with 404', sdkError('Odd', 404), 'not-found'],
    ['EntityAlreadyExists', sdkError('EntityAlreadyExists', 409), 'already-exists'],
    ['BucketAlreadyOwnedByYou', sdkError('BucketAlreadyOwnedByYou', 409), 'already-exists'],
    ['PreconditionFailed', sdkError('PreconditionFailed', 412), 'precondition-failed'],
    ['unknown code with 412', sdkError('Odd', 412), 'precondition-failed'],
    ['AccessDenied', sdkError('AccessDenied', 403), 'access-denied'],
    ['unknown code with 403', sdkError('Odd', 403), 'access-denied'],
    ['ValidationException', sdkError('ValidationException', 400), 'validation'],
    ['unknown code with 400', sdkError('Odd', 400), 'validation'],
    ['BucketNotEmpty 409 is not "already exists"', sdkError('BucketNotEmpty', 409), 'unknown'],
    [
      'a quota (LimitExceededException) is not throttling: retrying cannot help',
      sdkError('LimitExceededException', 400),
      'validation',
    ],
    ['a plain string', 'boom', 'unknown'],
  ];
  it.each(rows)('%s', (_name, error, expected) => {
    expect(classifyAwsError(error)).toBe(expected);
  });
});

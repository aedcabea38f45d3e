import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { outcomeUnknown } from '../../src/providers/outcome-unknown.js';
import { ResourceMadeError } from '../../src/providers/provider.js';

/** An error as the AWS SDK surfaces a parsed answer. */
function answered(name: string, status: number): Error {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status, attempts: 1 } });
}

/** An error as the SDK surfaces a connection that broke before any answer was parsed. */
function network(code: string, message = code, name = 'Error'): Error {
  return Object.assign(new Error(message), { name, code, $metadata: { attempts: 1 } });
}

// Spec 003, "Ambiguous creates": the classes after which a create looks for what it made.
describe('whether a failed call may have taken effect', () => {
  it.each<[string, unknown, boolean]>([
    ['HTTP 500 InternalFailure', answered('InternalFailure', 500), true],
    ['HTTP 500 ServiceFailure (IAM)', answered('ServiceFailure', 500), true],
    ['HTTP 502 bad gateway', answered('BadGateway', 502), true],
    ['HTTP 503 ServiceUnavailable', answered('ServiceUnavailable', 503), true],
    ['HTTP 504 gateway timeout', answered('GatewayTimeout', 504), true],
    ['HTTP 503 SlowDown (a throttle: refused before acting)', answered('SlowDown', 503), false],
    ['HTTP 400 ThrottlingException', answered('ThrottlingException', 400), false],
    ['HTTP 429 too many requests', answered('TooManyRequestsException', 429), false],
    ['HTTP 400 validation', answered('ValidationException', 400), false],
    ['HTTP 409 already exists', answered('EntityAlreadyExists', 409), false],
    ['HTTP 400 S3 RequestTimeout (the service read no request)', answered('RequestTimeout', 400), false],
    ['HTTP 501 not implemented', answered('NotImplemented', 501), false],
    ['connection reset (socket hang up)', network('ECONNRESET', 'socket hang up'), true],
    ['broken pipe', network('EPIPE'), true],
    ['socket timeout', network('ETIMEDOUT'), true],
    ['connection aborted', network('ECONNABORTED'), true],
    ['SDK request timeout', network('', 'Connection timed out after 1000 ms', 'TimeoutError'), true],
    ['a "socket hang up" with no code', new Error('socket hang up'), true],
    ['connection refused (nothing sent)', network('ECONNREFUSED'), false],
    ['no local address (nothing sent)', network('EADDRNOTAVAIL'), false],
    ['unknown host (nothing sent)', network('ENOTFOUND'), false],
    [
      'a provider that proved what it made',
      new ResourceMadeError({ physicalId: 'r' }, answered('InternalFailure', 500)),
      false,
    ],
    ['a typed cdkd error', new CdkdError('NAMED_CREATE_COLLISION', 'taken'), false],
    ['a plain error', new Error('boom'), false],
    ['not an error', 'boom', false],
  ])('%s → %s', (_name, error, expected) => {
    expect(outcomeUnknown(error)).toBe(expected);
  });
});

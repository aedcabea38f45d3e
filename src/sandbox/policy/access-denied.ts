import { SandboxError } from '../errors.js';
import type { Protocol } from '../service-module.js';

/**
 * The error a service answers when IAM refuses a call, in its own code: SNS's
 * AuthorizationError (which names the action `SNS:Publish`), EC2's UnauthorizedOperation,
 * SQS's AccessDenied query code beside its JSON type; otherwise AccessDenied for query and
 * REST-XML services, AccessDeniedException for JSON and REST-JSON ones.
 */
export function accessDenied(service: string, protocol: Protocol, message: string): SandboxError {
  if (service === 'sns')
    return new SandboxError('AuthorizationError', message.replaceAll(' sns:', ' SNS:'), 403);
  if (service === 'ec2') {
    return new SandboxError(
      'UnauthorizedOperation',
      `You are not authorized to perform this operation. ${message}`,
      403,
    );
  }
  if (service === 'sqs') {
    return new SandboxError('AccessDeniedException', message, 403, {
      headers: { 'x-amzn-query-error': 'AccessDenied;Sender' },
    });
  }
  const code = protocol === 'json' || protocol === 'rest-json' ? 'AccessDeniedException' : 'AccessDenied';
  return new SandboxError(code, message, 403);
}

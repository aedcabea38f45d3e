import { awsErrorCode, classifyAwsError, httpStatusOf } from '../aws/error-class.js';
import { isCdkdError } from '../errors.js';
import { ResourceMadeError } from './provider.js';

/** 5xx answers: the service may have acted before it failed to say so (a throttle is its own class). */
const SERVER_ERROR_STATUSES = new Set([500, 502, 503, 504]);

/**
 * Failures of a connection that was open: the request may have reached the service and
 * only the answer was lost. A refused or unreachable connection (ECONNREFUSED,
 * EADDRNOTAVAIL, ENOTFOUND) never sent anything, so it is not here.
 */
const LOST_ANSWER_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET']);
const LOST_ANSWER_NAMES = new Set(['TimeoutError', 'RequestTimeoutError']);
const LOST_ANSWER_MESSAGES = ['socket hang up'];

/**
 * Whether a failed call's outcome is unknown (spec 003, "Ambiguous creates"): it may have
 * taken effect, so a create must look for what it made before it is sent again. An answer
 * the service parsed and refused (4xx, a throttle) is known to have made nothing; a create
 * whose provider proved what it made (ResourceMadeError) is known too.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof ResourceMadeError || isCdkdError(error)) return false;
  if (classifyAwsError(error) === 'throttling') return false;
  const status = httpStatusOf(error);
  if (status !== undefined) return SERVER_ERROR_STATUSES.has(status);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && LOST_ANSWER_CODES.has(code)) return true;
  const name = awsErrorCode(error);
  if (name !== undefined && LOST_ANSWER_NAMES.has(name)) return true;
  const message = error instanceof Error ? error.message : '';
  return LOST_ANSWER_MESSAGES.some((text) => message.includes(text));
}

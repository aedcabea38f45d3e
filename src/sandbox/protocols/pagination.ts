import { SandboxError } from '../errors.js';

const invalidRequest = () => new SandboxError('InvalidRequestException', 'The NextToken is not valid.', 400);

/**
 * One page of `items` from an opaque NextToken (an encoded offset); `invalid` is the error the
 * service answers a token it never gave with.
 */
export function page<T>(
  items: readonly T[],
  maxResults: unknown,
  nextToken: unknown,
  invalid: () => SandboxError = invalidRequest,
): { items: T[]; nextToken?: string } {
  const size = typeof maxResults === 'number' && maxResults > 0 ? maxResults : 100;
  let start = 0;
  if (typeof nextToken === 'string') {
    start = Number(Buffer.from(nextToken, 'base64url').toString('utf8'));
    if (!Number.isInteger(start) || start < 0) {
      throw invalid();
    }
  }
  const slice = items.slice(start, start + size);
  const end = start + slice.length;
  return end < items.length
    ? { items: slice, nextToken: Buffer.from(String(end)).toString('base64url') }
    : { items: slice };
}

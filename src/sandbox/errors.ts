/**
 * An AWS service error. Each protocol codec renders it in that protocol's wire shape, so a
 * handler only says what went wrong, never how it is encoded.
 */
export class SandboxError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra top-level fields some errors carry (S3: BucketName, Key, Condition ...). */
  readonly fields: Readonly<Record<string, string>>;
  /** Response headers the error carries (S3: x-amz-delete-marker on a 404 for a delete marker). */
  readonly headers: Readonly<Record<string, string>>;
  /** Query protocol: whether the caller (`Sender`) or the service (`Receiver`) is at fault. */
  readonly type: 'Sender' | 'Receiver';

  constructor(
    code: string,
    message: string,
    status: number,
    options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
    this.status = status;
    this.fields = options.fields ?? {};
    this.headers = options.headers ?? {};
    this.type = status >= 500 ? 'Receiver' : 'Sender';
  }
}

export function internalError(): SandboxError {
  return new SandboxError('InternalError', 'We encountered an internal error. Please try again.', 500);
}

import type { ProgressEvent } from '@aws-sdk/client-cloudcontrol';

/**
 * A Cloud Control request that ended FAILED (or was cancelled). `name` is the handler's
 * ErrorCode (AlreadyExists, NotFound, Throttling ...) so `classifyAwsError` and the retry
 * classes read it as they read an SDK error; the message is the handler's StatusMessage.
 */
export class CloudControlRequestFailed extends Error {
  readonly errorCode: string;
  readonly requestToken: string;
  readonly typeName: string;
  readonly operation: string;
  readonly identifier: string | undefined;

  constructor(event: ProgressEvent) {
    const errorCode =
      event.OperationStatus === 'CANCEL_COMPLETE' ? 'Cancelled' : (event.ErrorCode ?? 'InternalFailure');
    super(
      event.StatusMessage ??
        `Cloud Control ${String(event.Operation)} of ${String(event.TypeName)} ended ${String(event.OperationStatus)}`,
    );
    this.name = errorCode;
    this.errorCode = errorCode;
    this.requestToken = event.RequestToken ?? '';
    this.typeName = event.TypeName ?? '';
    this.operation = event.Operation ?? '';
    this.identifier = event.Identifier;
  }
}

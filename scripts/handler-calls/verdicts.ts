// How the sandbox answers each handler call: served, AWS's own error for a feature a
// one-machine sandbox cannot have (asked with the request that needs the feature), or not
// served. Calls another piece of work builds are named with it.
import { isServed, probe, type ProbeResult } from './probe.js';

export type Status = 'served' | 'aws-error' | 'not served';

/** An unsupported feature: the request that asks for it and the error AWS answers. */
export interface AwsErrorCall {
  input: Record<string, unknown>;
  errorCode: string;
  reason: string;
}

/** Keyed `service Operation`. */
export const AWS_ERROR_CALLS: Readonly<Record<string, AwsErrorCall>> = {
  'auto-scaling CompleteLifecycleAction': {
    input: {
      AutoScalingGroupName: 'sandbox-probe',
      LifecycleHookName: 'sandbox-probe',
      LifecycleActionResult: 'CONTINUE',
      InstanceId: 'i-0123456789abcdef0',
    },
    errorCode: 'ValidationError',
    reason: 'the sandbox launches no instances, so no lifecycle action is ever waiting',
  },
};

/**
 * Members a probe must send beyond the URI labels the client insists on: S3 names some
 * operations by a query member (`?uploadId`) that the client sends only when given.
 */
const PROBE_INPUT: Readonly<Record<string, Record<string, unknown>>> = {
  's3 CompleteMultipartUpload': { UploadId: 'sandbox-probe' },
  's3 UploadPart': { UploadId: 'sandbox-probe', PartNumber: 1 },
  's3 AbortMultipartUpload': { UploadId: 'sandbox-probe' },
};

export interface Verdict {
  status: Status;
  answer: ProbeResult;
  note?: string;
}

export async function verdictFor(endpoint: string, service: string, operation: string): Promise<Verdict> {
  const key = `${service} ${operation}`;
  const unsupported = AWS_ERROR_CALLS[key];
  if (unsupported) {
    const answer = await probe(endpoint, service, operation, unsupported.input);
    const status = answer.errorCode === unsupported.errorCode ? 'aws-error' : 'not served';
    return { status, answer, note: `${unsupported.errorCode}: ${unsupported.reason}` };
  }
  const answer = await probe(endpoint, service, operation, PROBE_INPUT[key]);
  return { status: isServed(answer) ? 'served' : 'not served', answer };
}

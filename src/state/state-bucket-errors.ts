import { awsErrorCode, classifyAwsError, httpStatusOf } from '../aws/error-class.js';
import { CdkdError } from '../errors.js';
import { stateDocumentOf, type StateDocumentKind } from './keys.js';
import { LOCK_TTL_MS } from './lock-schedule.js';

/** One call on the state bucket: what it did, and to which key (a listing: to which prefix). */
export interface StateBucketCall {
  action: 'locate' | 'read' | 'write' | 'delete' | 'list';
  key: string;
  /** The state prefix, to name the stack a key belongs to. */
  prefix: string;
}

/**
 * Every failure of a call on the state bucket, turned into a sentence a user can act on:
 * the bucket, what cdkd was doing to which stack's document, and what is safe to do next.
 * The cross-region case gets its own: S3 answers with an empty-body 301 that the SDK
 * surfaces as a bare "UnknownError" (spec 003, "Cross-region state bucket").
 */
export function stateBucketError(
  error: unknown,
  bucket: string,
  region: string,
  call?: StateBucketCall,
): unknown {
  if (error instanceof CdkdError) return error;
  const code = awsErrorCode(error);
  const status = httpStatusOf(error);
  if (code === 'NoSuchBucket') {
    return new CdkdError('STATE_BUCKET_NOT_FOUND', `The state bucket "${bucket}" does not exist.`, {
      hint: 'Run cdkd bootstrap to create it, or pass --state-bucket (or set CDKD_STATE_BUCKET) to use another.',
      cause: error,
    });
  }
  if (status === 301 || (status !== undefined && status >= 300 && status < 400)) {
    return new CdkdError(
      'STATE_BUCKET_WRONG_REGION',
      `The state bucket "${bucket}" answered HTTP ${status}: it is not in ${region}, the region cdkd used to reach it.`,
      {
        hint: 'cdkd looks the region up with GetBucketLocation; check that your credentials may call it on this bucket.',
        cause: error,
      },
    );
  }
  const errorClass = classifyAwsError(error);
  if (errorClass === 'access-denied') {
    return new CdkdError(
      'STATE_BUCKET_ACCESS_DENIED',
      `Access to the state bucket "${bucket}" was denied (${code}).`,
      {
        hint: 'Check the credentials and profile in use, and the bucket policy.',
        cause: error,
      },
    );
  }
  if (!call) return error;
  const target = stateDocumentOf(call.prefix, call.key);
  const unavailable = errorClass === 'transient' || errorClass === 'throttling' || status === undefined;
  return new CdkdError(
    unavailable ? 'STATE_BUCKET_UNAVAILABLE' : 'STATE_BUCKET_FAILED',
    `${doing(call, target, bucket)} failed${attempts(error)}: ${why(error, status, code)}`,
    { hint: stateBucketAdvice(call.action, target), cause: error },
  );
}

type Target = ReturnType<typeof stateDocumentOf>;

const DOCUMENT_NAMES: Record<StateDocumentKind, string> = {
  state: 'the state',
  lock: 'the lock',
  journal: 'the rollback journal',
  'no-echo': 'the NoEcho data',
  drift: 'the drift summary',
  generation: "the last deploy's generation",
  events: 'the deployment events',
  responses: "a custom resource's response",
};

function doing(call: StateBucketCall, target: Target, bucket: string): string {
  const where = `in the state bucket "${bucket}"`;
  if (call.action === 'locate') return `Looking up the region of the state bucket "${bucket}"`;
  if (!target)
    return `${verb(call.action)} ${call.action === 'list' ? 'the keys under ' : ''}${call.key} ${where}`;
  const what = `${DOCUMENT_NAMES[target.kind]} of stack ${stackArgument(target.stack)} (${target.stack.region}) ${where}`;
  if (target.kind === 'lock' && call.action === 'write') return `Taking or renewing ${what}`;
  if (target.kind === 'lock' && call.action === 'delete') return `Releasing ${what}`;
  return `${verb(call.action)} ${what}`;
}

function verb(action: StateBucketCall['action']): string {
  return { locate: 'Locating', read: 'Reading', write: 'Saving', delete: 'Deleting', list: 'Listing' }[
    action
  ];
}

/** What came back instead of an answer: S3's status, code and message, or the lost connection. */
function why(error: unknown, status: number | undefined, code: string | undefined): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  if (status === undefined) return `no answer came back (${message}).`;
  const detail = message && message !== code && message !== 'UnknownError' ? `: ${message}` : '';
  return `S3 answered HTTP ${status}${code ? ` ${code}` : ''}${detail}.`;
}

/** The SDK's own retries, spent before the error reached cdkd. */
function attempts(error: unknown): string {
  const count = (error as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1;
  return count > 1 ? ` after ${count} attempts` : '';
}

/** A stack as the CLI takes it: a nested stack as Parent~Child. */
function stackArgument(stack: { stackName: string }): string {
  return stack.stackName.replaceAll('/', '~');
}

const AGAIN = 'Re-run the command once the bucket answers again';

/**
 * What is safe to do after a failed call, by the document and what the call did to it: a
 * read changed nothing; a lock may be left behind; a save may or may not have landed, and
 * the rollback journal records what the run did to AWS.
 */
export function stateBucketAdvice(action: StateBucketCall['action'], target: Target): string {
  if (!target) return `${AGAIN}.`;
  const name = stackArgument(target.stack);
  const stack = `${name} --region ${target.stack.region}`;
  if (target.kind === 'lock' && action === 'write') {
    return `${AGAIN}. The lock may have been written all the same: if the re-run says ${name} is locked by this machine while no cdkd process works on it, clear it with cdkd force-unlock ${stack}.`;
  }
  if (target.kind === 'lock') {
    return `This run's lock may be left in the bucket: it lapses ${LOCK_TTL_MS / 60_000} minutes after its last renewal, or clear it with cdkd force-unlock ${stack} once no cdkd process works on the stack. ${AGAIN}.`;
  }
  if (action === 'read' || action === 'list') return `A read changes nothing. ${AGAIN}.`;
  if (target.kind === 'state' && action === 'write') {
    return `The save may or may not have landed (state is replaced whole, never half-written), and the rollback journal records what this run did to AWS. ${AGAIN}, or revert the run with cdkd rollback ${stack}.`;
  }
  if (target.kind === 'journal' && action === 'write') {
    return `The journal is written before each call it records, so nothing it does not name was sent to AWS. ${AGAIN}, or revert the run with cdkd rollback ${stack}.`;
  }
  if (target.kind === 'journal') {
    return `The journal may be left in the bucket: the next successful deploy of ${name}, or cdkd rollback ${stack}, settles it.`;
  }
  return `${AGAIN}.`;
}

/** A command that needs a stack's state found none. */
export function stackNotInState(stack: { stackName: string; region: string }, bucket?: string): CdkdError {
  return new CdkdError(
    'STACK_NOT_IN_STATE',
    `No state for stack ${stack.stackName} in ${stack.region}${bucket ? ` in bucket ${bucket}` : ''}.`,
    { hint: 'Run cdkd state list to see the stacks cdkd has deployed.' },
  );
}

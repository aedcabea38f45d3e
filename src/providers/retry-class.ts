import { awsErrorCode, classifyAwsError } from '../aws/error-class.js';

/**
 * Which retry schedule an error gets (spec 003, "Retry schedules"). `throttling` covers
 * rate limits and a resource still settling (leaving Pending, a dependency an async
 * delete is releasing); `transient` covers HTTP 500/502/503/504 and network failures.
 * Both run on the generic schedule; the give-up line counts them apart.
 */
export type RetryClass = 'throttling' | 'transient' | 'iam-propagation' | 'name-cooldown';

/** A name a just-deleted resource still holds (SQS names a 60 s window). */
const NAME_COOLDOWN_CODES = new Set([
  'QueueDeletedRecently',
  'AWS.SimpleQueueService.QueueDeletedRecently',
  'StateMachineDeleting',
]);
const NAME_COOLDOWN_MESSAGES = ['conflicting conditional operation is currently in progress'];

/**
 * Messages AWS gives while a new IAM entity has not propagated to the consuming service.
 * Some are also given for permanent problems; those spend the budget, then surface.
 */
const IAM_PROPAGATION_MESSAGES = [
  'Invalid IAM Instance Profile',
  'cannot be assumed',
  'not authorized to perform',
  'Policy Error: PrincipalNotFound',
  'not authorized to access the Log Destination',
  'does not have a trust relationship allowing',
  'authorized to assume the provided role',
  'is unable to assume provided role',
  'Invalid principal in policy',
];

/** An explicit deny reads like propagation ("not authorized to perform") but never resolves. */
const PERMANENT_DENIAL = 'explicit deny';

// ELB's target group still named by a listener being deleted, ECS's cluster still holding a draining service.
const SETTLING_CODES = new Set(['DependencyViolation', 'ResourceInUse', 'ClusterContainsServicesException']);
const SETTLING_MESSAGES = ['is currently in the following state: Pending'];

/** Cloud Control handler error codes (ProgressEvent.ErrorCode) that a retry may clear. */
const CC_TRANSIENT_CODES = new Set(['ServiceInternalError', 'NetworkFailure', 'InternalFailure']);

/** Errors from a provider that retries inside (custom resources): the outer schedule never replays them. */
const FINAL_ERRORS = new WeakSet<object>();

/** Marks `error` as final for the outer retry schedule (spec 003, "Providers outside the outer retry"). */
export function noOuterRetry<E>(error: E): E {
  if (typeof error === 'object' && error !== null) FINAL_ERRORS.add(error);
  return error;
}

export function retryClassOf(error: unknown): RetryClass | undefined {
  if (typeof error === 'object' && error !== null && FINAL_ERRORS.has(error)) return undefined;
  const code = awsErrorCode(error) ?? '';
  const message = error instanceof Error ? error.message : '';
  if (NAME_COOLDOWN_CODES.has(code) || NAME_COOLDOWN_MESSAGES.some((text) => message.includes(text))) {
    return 'name-cooldown';
  }
  if (
    !message.includes(PERMANENT_DENIAL) &&
    IAM_PROPAGATION_MESSAGES.some((text) => message.includes(text))
  ) {
    return 'iam-propagation';
  }
  if (SETTLING_CODES.has(code) || SETTLING_MESSAGES.some((text) => message.includes(text)))
    return 'throttling';
  if (CC_TRANSIENT_CODES.has(code)) return 'transient';
  const errorClass = classifyAwsError(error);
  if (errorClass === 'throttling' || errorClass === 'transient') return errorClass;
  return undefined;
}

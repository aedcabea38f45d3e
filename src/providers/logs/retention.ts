import { CdkdError } from '../../errors.js';

/** What an update does with a log group's retention policy. */
export type RetentionAction = { action: 'put'; days: number } | { action: 'delete' };

const SIGNED_DECIMAL = /^[+-]?\d+$/;

/**
 * RetentionInDays read as CloudFormation reads it (spec 002, "Log group retention"): an
 * optional sign and decimal digits, whitespace trimmed; absent / empty / whitespace-only
 * means no retention; zero, false and null are refused, as is any other spelling
 * ('0x1e', '1e3', '30.5', '30.0'), before any AWS call. Which numbers CloudWatch allows
 * (1, 3, 5, ...) is left to PutRetentionPolicy to say.
 */
export function retentionAction(value: unknown): RetentionAction {
  if (value === undefined) return { action: 'delete' };
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return { action: 'delete' };
    if (SIGNED_DECIMAL.test(text)) return nonZero(Number(text), value);
    throw invalid(value);
  }
  if (typeof value === 'number' && Number.isInteger(value)) return nonZero(value, value);
  throw invalid(value);
}

function nonZero(days: number, original: unknown): RetentionAction {
  if (days === 0) throw invalid(original);
  return { action: 'put', days };
}

function invalid(value: unknown): CdkdError {
  return new CdkdError(
    'LOG_RETENTION_INVALID',
    `RetentionInDays ${JSON.stringify(value) ?? String(value)} is not a valid retention: CloudFormation takes a whole number of days (e.g. 30 or "30").`,
    {
      hint: 'Set RetentionInDays to one of the periods CloudWatch Logs allows (1, 3, 5, 7, 14, 30, ... 3653), or remove the property for logs that never expire.',
    },
  );
}

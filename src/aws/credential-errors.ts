import { CdkdError } from '../errors.js';
import { awsErrorCode } from './error-class.js';

/** What a credential failure is read against: the profile in use (for the command that fixes it). */
export interface CredentialContext {
  profile?: string;
}

const profileFlag = (context: CredentialContext) => (context.profile ? ` --profile ${context.profile}` : '');

/**
 * The credential failures a person can fix, named as such with the command that fixes them;
 * undefined for anything else (left to the caller's own error). The SDK's providers say what
 * went wrong only in their messages, so these are read from the message.
 */
export function credentialError(error: unknown, context: CredentialContext): CdkdError | undefined {
  if (error instanceof CdkdError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const named = context.profile ? `profile ${context.profile}` : 'the credentials in use';
  if (/SSO session|SSO Token|Token is expired|sso_session/i.test(message)) {
    return new CdkdError(
      'SSO_SESSION_EXPIRED',
      `The IAM Identity Center (SSO) session of ${named} has expired or was never started.`,
      { hint: `Sign in again: aws sso login${profileFlag(context)}`, cause: error },
    );
  }
  if (/requires multi-factor authentication/.test(message)) {
    return new CdkdError(
      'MFA_CODE_REQUIRED',
      `The role of ${named} needs an MFA code, and there is no terminal to ask for it on.`,
      {
        hint: 'Run the command on a terminal to enter the code, or use credentials that need none (e.g. from aws sts get-session-token).',
        cause: error,
      },
    );
  }
  const code = awsErrorCode(error);
  if ((code === 'AccessDenied' || code === 'AccessDeniedException') && context.profile) {
    const mfa = /MultiFactorAuthentication/.test(message);
    return new CdkdError(
      'ROLE_NOT_ASSUMABLE',
      `The role of ${named} refused the credentials: ${message.trim()}`,
      {
        hint: mfa
          ? 'Enter the current code of the MFA device the profile names (mfa_serial).'
          : "Check the profile's role_arn, and that the role's trust policy names the source profile's account (and external_id).",
        cause: error,
      },
    );
  }
  if (code === 'ExpiredToken' || code === 'ExpiredTokenException' || code === 'RequestExpired') {
    return new CdkdError('CREDENTIALS_EXPIRED', `The session credentials of ${named} have expired.`, {
      hint: context.profile
        ? `Get new ones (aws sso login${profileFlag(context)} for an SSO profile; a profile with mfa_serial asks for a new code on the next run).`
        : 'Get new session credentials (a new MFA session, or aws sso login) and run again.',
      cause: error,
    });
  }
  if (/credential_process|^Command failed:/.test(message)) {
    return new CdkdError(
      'CREDENTIAL_PROCESS_FAILED',
      `The credential_process of ${named} failed: ${message}`,
      {
        hint: 'Run the process named in your AWS config by hand to see why.',
        cause: error,
      },
    );
  }
  if (
    /could not be found in shared credentials file|Could not resolve credentials using profile/.test(message)
  ) {
    return new CdkdError(
      'PROFILE_NOT_FOUND',
      `The AWS ${named} is not in your AWS config or credentials file.`,
      {
        hint: 'Check the name (aws configure list-profiles), or AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE.',
        cause: error,
      },
    );
  }
  return undefined;
}

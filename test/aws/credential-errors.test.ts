import { describe, expect, it } from 'vitest';
import { credentialError } from '../../src/aws/credential-errors.js';

const awsError = (name: string, message = name) => Object.assign(new Error(message), { name });

describe('credentialError: credential failures named, with what fixes them', () => {
  it.each<[string, unknown, string | undefined, string | undefined, string | undefined]>([
    [
      'SSO session expired',
      new Error(
        "The SSO session associated with this profile has expired. To refresh this SSO session run 'aws sso login' with the corresponding profile.",
      ),
      'dev',
      'SSO_SESSION_EXPIRED',
      'aws sso login --profile dev',
    ],
    [
      'SSO token missing',
      new Error(
        "The SSO session token associated with profile=dev was not found or is invalid. To refresh this SSO session run 'aws sso login' with the corresponding profile.",
      ),
      'dev',
      'SSO_SESSION_EXPIRED',
      'aws sso login --profile dev',
    ],
    [
      'SSO token expired',
      new Error('Token is expired. To refresh...'),
      undefined,
      'SSO_SESSION_EXPIRED',
      'aws sso login',
    ],
    [
      'MFA without a code callback',
      new Error('Profile dev requires multi-factor authentication, but no MFA code callback was provided.'),
      'dev',
      'MFA_CODE_REQUIRED',
      'terminal',
    ],
    [
      'expired session token',
      awsError('ExpiredToken'),
      'dev',
      'CREDENTIALS_EXPIRED',
      'aws sso login --profile dev',
    ],
    [
      'expired token exception',
      awsError('ExpiredTokenException'),
      undefined,
      'CREDENTIALS_EXPIRED',
      'new session',
    ],
    [
      'credential_process exit',
      new Error('Command failed: get-creds\n'),
      'p',
      'CREDENTIAL_PROCESS_FAILED',
      'by hand',
    ],
    [
      'credential_process output',
      new Error('Profile p credential_process returned invalid JSON.'),
      'p',
      'CREDENTIAL_PROCESS_FAILED',
      'by hand',
    ],
    [
      'unknown profile',
      new Error('Could not resolve credentials using profile: [nope] in configuration/credentials file(s).'),
      'nope',
      'PROFILE_NOT_FOUND',
      'aws configure list-profiles',
    ],
    [
      'a wrong MFA code',
      awsError('AccessDenied', 'MultiFactorAuthentication failed with invalid MFA one time pass code.'),
      'dev',
      'ROLE_NOT_ASSUMABLE',
      'MFA device',
    ],
    ['a role whose trust refuses', awsError('AccessDenied'), 'dev', 'ROLE_NOT_ASSUMABLE', 'trust policy'],
    ['anything else', new Error('socket hang up'), 'dev', undefined, undefined],
  ])('%s', (_name, error, profile, code, hint) => {
    const mapped = credentialError(error, profile ? { profile } : {});
    expect(mapped?.code).toBe(code);
    if (hint) expect(mapped?.hint).toContain(hint);
  });
});

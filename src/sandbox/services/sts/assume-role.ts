import { randomBytes } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { queryParams } from '../../protocols/query.js';
import type { SandboxRequest } from '../../request.js';
import type { ResourceHandlers } from '../../resources.js';
import { el } from '../../xml.js';
import { ROLE_ARN, sessionArn, type SessionStore } from './sessions.js';
import { trustsCaller } from './trust-policy.js';

const SESSION_NAME = /^[\w+=,.@-]{2,64}$/;

const validation = (message: string) => new SandboxError('ValidationError', message, 400);

/**
 * AssumeRole: credentials whose access key id is the role's account, so what the caller does
 * with them acts in that account (see `requestAccount`). A role the sandbox does not hold is
 * AccessDenied, as AWS answers for a role that does not exist or does not trust the caller
 * (`trust-policy.ts`). The session is recorded by its token, so requests signed with the
 * credentials act as the role (`GetCallerIdentity`, `--enforce-iam`).
 */
export async function assumeRole(
  request: SandboxRequest,
  resources: ResourceHandlers,
  sessions: SessionStore,
): Promise<string[]> {
  const params = queryParams(request);
  const roleArn = params.get('RoleArn') ?? '';
  const sessionName = params.get('RoleSessionName') ?? '';
  if (!SESSION_NAME.test(sessionName)) {
    throw validation(
      `1 validation error detected: Value '${sessionName}' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*`,
    );
  }
  const match = ROLE_ARN.exec(roleArn);
  const role = match && resources.resolve('AWS::IAM::Role')?.read(match[2]!, request.region, match[1]!);
  const externalId = params.get('ExternalId') ?? undefined;
  const trust = (role as { AssumeRolePolicyDocument?: unknown } | undefined)?.AssumeRolePolicyDocument;
  if (
    !match ||
    !role ||
    !trustsCaller(trust, { accountId: request.accountId, ...(externalId ? { externalId } : {}) })
  ) {
    throw new SandboxError(
      'AccessDenied',
      `User: arn:aws:iam::${request.accountId}:root is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
      403,
    );
  }
  // The sandbox holds no MFA devices: any six-digit code passes, anything else fails as a wrong code does.
  if (params.get('SerialNumber') && !/^\d{6}$/.test(params.get('TokenCode') ?? '')) {
    throw new SandboxError(
      'AccessDenied',
      'MultiFactorAuthentication failed with invalid MFA one time pass code. ',
      403,
    );
  }
  const duration = Number(params.get('DurationSeconds') ?? 3600);
  if (!Number.isInteger(duration) || duration < 900 || duration > 43_200) {
    throw validation(
      `1 validation error detected: Value '${params.get('DurationSeconds')}' at 'durationSeconds' failed to satisfy constraint: Member must have value between 900 and 43200`,
    );
  }
  const roleId = String((role as { RoleId?: unknown }).RoleId ?? '');
  const sessionToken = randomBytes(48).toString('base64');
  const expiresAt = Date.now() + duration * 1000;
  await sessions.issue(sessionToken, { roleArn, roleId, sessionName, account: match[1]!, expiresAt });
  return [
    el('Credentials', [
      el('AccessKeyId', match[1]!),
      el('SecretAccessKey', randomBytes(20).toString('base64')),
      el('SessionToken', sessionToken),
      el('Expiration', new Date(expiresAt).toISOString()),
    ]),
    el('AssumedRoleUser', [
      el('AssumedRoleId', `${roleId}:${sessionName}`),
      el('Arn', sessionArn({ account: match[1]!, roleArn, sessionName })),
    ]),
  ];
}

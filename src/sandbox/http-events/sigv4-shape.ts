import type { IngressRequest } from '../ingress.js';
import { requestAccount } from '../request.js';
import { queryPairs } from '../../http-events/request-parts.js';

/** Who signed a request, as IAM authorization reports the caller. */
export interface SignedCaller {
  accessKeyId: string;
  accountId: string;
  userArn: string;
}

export type SigV4Outcome =
  { kind: 'signed'; caller: SignedCaller } | { kind: 'missing' } | { kind: 'malformed'; message: string };

const CREDENTIAL = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/;

/**
 * IAM authorization as the sandbox does it: the request must carry a SigV4 signature of the
 * right shape (an Authorization header or presigned query, scoped to `service`, with a date),
 * but the signature itself is not verified: the sandbox trusts any caller's keys.
 */
export function checkSigV4Shape(
  request: IngressRequest,
  service: string,
  sandboxAccount: string,
): SigV4Outcome {
  const header = request.headers.authorization;
  const query = new Map(queryPairs(request.rawQuery));
  let credential: string | undefined;
  if (header !== undefined) {
    if (!header.startsWith('AWS4-HMAC-SHA256 ')) {
      return {
        kind: 'malformed',
        message: `Authorization header requires 'Credential' parameter. Authorization=${header}`,
      };
    }
    const params = new Map(
      header
        .slice('AWS4-HMAC-SHA256 '.length)
        .split(',')
        .map((part) => part.trim().split('=', 2) as [string, string]),
    );
    const missing = ['Credential', 'Signature', 'SignedHeaders']
      .filter((name) => !params.get(name))
      .map((name) => `Authorization header requires '${name}' parameter.`);
    if (!request.headers['x-amz-date'] && !request.headers.date) {
      missing.push("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
    }
    if (missing.length > 0)
      return { kind: 'malformed', message: `${missing.join(' ')} Authorization=${header}` };
    credential = params.get('Credential');
  } else if (query.has('X-Amz-Signature')) {
    const missing = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-SignedHeaders'].filter(
      (name) => !query.get(name),
    );
    if (missing.length > 0) {
      return {
        kind: 'malformed',
        message: `Query-string authentication requires the ${missing.join(', ')} parameter.`,
      };
    }
    credential = query.get('X-Amz-Credential');
  } else {
    return { kind: 'missing' };
  }
  const scope = CREDENTIAL.exec(credential ?? '');
  if (!scope) return { kind: 'malformed', message: `Credential should be scoped to a valid region. ` };
  if (scope[4] !== service) {
    return { kind: 'malformed', message: `Credential should be scoped to correct service: '${service}'. ` };
  }
  const accessKeyId = scope[1]!;
  const accountId = requestAccount(accessKeyId, sandboxAccount);
  return { kind: 'signed', caller: { accessKeyId, accountId, userArn: `arn:aws:iam::${accountId}:root` } };
}

/** `requestContext.authorizer` for a caller IAM authorization let in (HTTP APIs, function URLs). */
export function iamAuthorizer(caller: SignedCaller): Record<string, unknown> {
  return {
    iam: {
      accessKey: caller.accessKeyId,
      accountId: caller.accountId,
      callerId: caller.accountId,
      cognitoIdentity: null,
      principalOrgId: null,
      userArn: caller.userArn,
      userId: caller.accountId,
    },
  };
}

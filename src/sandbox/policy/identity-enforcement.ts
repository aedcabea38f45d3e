import type { SandboxError } from '../errors.js';
import { roleReader, roleSessions, type AssumedSession } from '../ports/index.js';
import { sessionToken, type SandboxRequest } from '../request.js';
import type { SandboxContext, ServiceModule } from '../service-module.js';
import { sessionArn } from '../services/sts/sessions.js';
import { accessDenied } from './access-denied.js';
import { identityRefusal, refusalMessage } from './identity-decision.js';
import { needsNoPermission, requestAction } from './request-action.js';
import { passedRoles, requestResources } from './request-resource.js';

/**
 * `--enforce-iam`: a call signed with credentials STS AssumeRole issued is checked against
 * the role's identity policies and permissions boundary, as it stands when the call arrives.
 * A call that hands the service a role (a function's, a stack's) also needs `iam:PassRole`
 * on it. Calls signed with an account's own keys act as its root and are never checked.
 */
export class IdentityEnforcement {
  constructor(
    private readonly context: SandboxContext,
    public enabled: boolean,
  ) {}

  /** The service's refusal of the call, or undefined when it may go ahead. */
  refusal(request: SandboxRequest, module: ServiceModule, operation: string): SandboxError | undefined {
    if (!this.enabled || needsNoPermission(module.name, operation)) return undefined;
    const session = this.session(request);
    const roles = roleReader.of(this.context);
    if (!session || !roles) return undefined;
    const action = requestAction(module.name, operation, request);
    const policies = {
      identity: roles.identityPolicies(session.roleArn),
      boundary: roles.permissionsBoundary(session.roleArn),
    };
    const principalArn = sessionArn(session);
    const checks: Array<[string, string | undefined]> = [
      ...(requestResources(request, module.name, operation) ?? [undefined]).map(
        (resource) => [action, resource] as [string, string | undefined],
      ),
      ...passedRoles(request, module.name).map((role) => ['iam:PassRole', role] as [string, string]),
    ];
    for (const [checked, resource] of checks) {
      const context = requestContext(request, session, this.context.clock.now(), resource);
      const principal = { arn: principalArn, account: session.account };
      const refusal = identityRefusal({ principal, action: checked, resource, context }, policies);
      if (refusal) {
        const message = refusalMessage(principalArn, checked, resource, refusal);
        return accessDenied(module.name, module.codec.protocol, message);
      }
    }
    return undefined;
  }

  private session(request: SandboxRequest): AssumedSession | undefined {
    const token = sessionToken(request);
    const session = token === undefined ? undefined : roleSessions.of(this.context)?.find(token);
    // A key selecting another account than the session's is not the credentials STS issued.
    return session?.account === request.accountId ? session : undefined;
  }
}

/**
 * The global condition keys the sandbox knows for a call. `aws:SecureTransport` is true: the
 * calls stand for ones made to AWS over TLS, though the sandbox speaks plain HTTP.
 */
function requestContext(
  request: SandboxRequest,
  session: AssumedSession,
  now: number,
  resource: string | undefined,
): Record<string, string> {
  const resourceAccount = resource?.split(':')[4];
  return {
    'aws:PrincipalArn': session.roleArn,
    'aws:PrincipalAccount': session.account,
    'aws:PrincipalType': 'AssumedRole',
    'aws:userid': `${session.roleId}:${session.sessionName}`,
    'aws:RoleSessionName': session.sessionName,
    'aws:RequestedRegion': request.region,
    'aws:CurrentTime': new Date(now).toISOString(),
    'aws:EpochTime': String(Math.floor(now / 1000)),
    'aws:SecureTransport': 'true',
    ...(resourceAccount ? { 'aws:ResourceAccount': resourceAccount } : {}),
  };
}

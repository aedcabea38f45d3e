import { SandboxError } from '../../errors.js';
import { queryAction, queryCodec, queryResult } from '../../protocols/query.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { roleSessions } from '../../ports/index.js';
import { sessionToken, type SandboxRequest } from '../../request.js';
import { el } from '../../xml.js';
import { assumeRole } from './assume-role.js';
import { sessionArn, SessionStore } from './sessions.js';

const XMLNS = 'https://sts.amazonaws.com/doc/2011-06-15/';
const VERSION = '2011-06-15';

/**
 * STS over the query protocol: the caller is the root user of the account its key selects
 * (`request.accountId`), or the role session whose token signed the request; AssumeRole hands
 * out keys selecting the role's account and records the session (`roleSessions` port).
 */
export const createStsService: ServiceModuleFactory = async (context) => {
  const sessions = await SessionStore.load(context.storage, context.resources);
  roleSessions.expose(context, sessions);
  return {
    name: 'sts',
    codec: queryCodec,
    operation: queryAction,
    isMutating: () => false,
    async handle(request, operation) {
      if (operation === 'AssumeRole') {
        return queryResult(operation, XMLNS, await assumeRole(request, context.resources, sessions), request);
      }
      if (operation !== 'GetCallerIdentity') {
        throw new SandboxError(
          'InvalidAction',
          `Could not find operation ${operation} for version ${VERSION}`,
          400,
        );
      }
      return queryResult(operation, XMLNS, callerIdentity(request, sessions), request);
    },
    inventory: () => ({}),
  };
};

/** The account's root, or the assumed role's session when the request carries its token. */
function callerIdentity(request: SandboxRequest, sessions: SessionStore): string[] {
  const token = sessionToken(request);
  const session = token === undefined ? undefined : sessions.find(token);
  if (!session || session.account !== request.accountId) {
    return [
      el('Arn', `arn:aws:iam::${request.accountId}:root`),
      el('UserId', request.accountId),
      el('Account', request.accountId),
    ];
  }
  return [
    el('Arn', sessionArn(session)),
    el('UserId', `${session.roleId}:${session.sessionName}`),
    el('Account', session.account),
  ];
}

import { SandboxError } from '../../errors.js';
import { queryAction, queryCodec, queryResult } from '../../protocols/query.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { el } from '../../xml.js';
import { assumeRole } from './assume-role.js';

const XMLNS = 'https://sts.amazonaws.com/doc/2011-06-15/';
const VERSION = '2011-06-15';

/**
 * STS over the query protocol: the caller is the root user of the account its key selects
 * (`request.accountId`); AssumeRole hands out keys selecting the role's account.
 */
export const createStsService: ServiceModuleFactory = async (context) => ({
  name: 'sts',
  codec: queryCodec,
  operation: queryAction,
  isMutating: () => false,
  async handle(request, operation) {
    if (operation === 'AssumeRole') {
      return queryResult(operation, XMLNS, assumeRole(request, context.resources), request);
    }
    if (operation !== 'GetCallerIdentity') {
      throw new SandboxError(
        'InvalidAction',
        `Could not find operation ${operation} for version ${VERSION}`,
        400,
      );
    }
    return queryResult(
      operation,
      XMLNS,
      [
        el('Arn', `arn:aws:iam::${request.accountId}:root`),
        el('UserId', request.accountId),
        el('Account', request.accountId),
      ],
      request,
    );
  },
  inventory: () => ({}),
});

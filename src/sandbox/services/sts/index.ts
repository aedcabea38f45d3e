import { SandboxError } from '../../errors.js';
import { queryAction, queryCodec, queryResult } from '../../protocols/query.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { el } from '../../xml.js';

const XMLNS = 'https://sts.amazonaws.com/doc/2011-06-15/';
const VERSION = '2011-06-15';

/** STS over the query protocol: the caller is always the account's root user. */
export const createStsService: ServiceModuleFactory = async (context) => ({
  name: 'sts',
  codec: queryCodec,
  operation: queryAction,
  isMutating: () => false,
  async handle(request, operation) {
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
        el('Arn', `arn:aws:iam::${context.accountId}:root`),
        el('UserId', context.accountId),
        el('Account', context.accountId),
      ],
      request,
    );
  },
  inventory: () => ({}),
});

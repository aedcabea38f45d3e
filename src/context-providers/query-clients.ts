import type { CallerEnvironment, ContextQuery } from '../assembly/index.js';
import type { AwsClients } from '../aws/index.js';
import { CdkdError } from '../errors.js';
import { partitionForRegion } from '../template/pseudo-parameters.js';

/** Builds an SDK client for the query's region, under the credentials the query may use. */
export type QueryClient = <C>(Client: new (config: never) => C) => Promise<C>;

/**
 * The credentials a lookup runs under. Credentials for the query's own account are used
 * as they are (cdkd creates no CDK bootstrap roles, and the CDK CLI falls back to them
 * too); for another account, the query's lookup role is assumed, with its placeholders
 * filled in as the CDK CLI fills them.
 */
export async function clientsForQuery(
  base: AwsClients,
  caller: () => Promise<CallerEnvironment>,
  query: ContextQuery,
): Promise<QueryClient> {
  const region = query.region;
  const account = query.account;
  const { account: callerAccount } = await caller();
  let clients = base;
  if (account && callerAccount && account !== callerAccount) {
    const roleArn =
      typeof query.lookupRoleArn === 'string'
        ? fillPlaceholders(query.lookupRoleArn, account, region)
        : undefined;
    if (!roleArn) {
      throw new CdkdError(
        'CONTEXT_LOOKUP_FAILED',
        `The app looks up context in account ${account}, but the credentials are for account ${callerAccount} and the query names no lookup role.`,
        { hint: `Run with credentials for account ${account}, or put the value in cdk.context.json.` },
      );
    }
    clients = base.assumingRole({
      roleArn,
      sessionName: 'cdkd-context-lookup',
      ...(typeof query.lookupRoleExternalId === 'string' ? { externalId: query.lookupRoleExternalId } : {}),
    });
  }
  return (Client) => clients.client(Client as never, region) as never;
}

function fillPlaceholders(arn: string, account: string, region: string | undefined): string {
  return arn
    .replace(/\$\{AWS::Partition\}/g, partitionForRegion(region ?? ''))
    .replace(/\$\{AWS::AccountId\}/g, account)
    .replace(/\$\{AWS::Region\}/g, region ?? '');
}

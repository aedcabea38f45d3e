import { GetParameterCommand } from '@aws-sdk/client-ssm';
import type { CallerEnvironment, ContextLookups } from '../assembly/index.js';
import type { AwsClients } from '../aws/client-factory.js';
import { CdkdError } from '../errors.js';

/** The context look-ups synthesis may make, through the caller's credentials. */
export function awsContextLookups(
  clients: Pick<AwsClients, 'ssm'>,
  caller: () => Promise<CallerEnvironment>,
): ContextLookups {
  return {
    async ssmParameter({ account, region, parameterName }) {
      const { account: callerAccount } = await caller();
      if (callerAccount && callerAccount !== account) {
        throw new CdkdError(
          'CONTEXT_LOOKUP_FAILED',
          `The app looks up SSM parameter ${parameterName} in account ${account}, but the credentials are for account ${callerAccount}.`,
          { hint: `Run with credentials for account ${account}, or put the value in cdk.context.json.` },
        );
      }
      const ssm = await clients.ssm(region);
      try {
        const result = await ssm.send(new GetParameterCommand({ Name: parameterName }));
        return result.Parameter?.Value;
      } catch (error) {
        if ((error as { name?: string }).name === 'ParameterNotFound') return undefined;
        throw error;
      }
    },
  };
}

import { IAMClient } from '@aws-sdk/client-iam';
import { AwsClients } from '../../src/aws/client-factory.js';
import type { ProviderContext } from '../../src/providers/provider.js';

export const ACCOUNT = '000000000000';

/** A ProviderContext whose clients reach the sandbox `useSandbox()` started (through AWS_ENDPOINT_URL). */
export function iamContext(stackName = 'IamStack'): ProviderContext {
  return {
    clients: new AwsClients({ region: 'us-east-1' }),
    accountId: ACCOUNT,
    region: 'us-east-1',
    stackName,
  };
}

export function iamClientFor(context: ProviderContext): Promise<IAMClient> {
  return context.clients.client(IAMClient, 'us-east-1');
}

export const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

export const doc = (action: string) => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }],
});

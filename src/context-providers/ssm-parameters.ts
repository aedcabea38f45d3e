import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { Provider } from './provider.js';

/** A parameter's value; a parameter that does not exist is notFound (the app may ignore it). */
export const ssmParameter: Provider = async (client, query) => {
  const name = String(query.parameterName);
  const ssm = await client(SSMClient);
  try {
    const response = await ssm.send(new GetParameterCommand({ Name: name }));
    if (response.Parameter?.Value !== undefined) return { value: response.Parameter.Value };
  } catch (error) {
    if ((error as { name?: string }).name !== 'ParameterNotFound') throw error;
  }
  return {
    notFound: `SSM parameter not available in account ${query.account}, region ${query.region}: ${name}`,
  };
};

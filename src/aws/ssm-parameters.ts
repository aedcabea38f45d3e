import { CdkdError } from '../errors.js';
import type { AwsClients } from './client-factory.js';
import { classifyAwsError } from './error-class.js';

export type ParameterReader = (name: string, options?: { decrypt?: boolean }) => Promise<string>;

/** Reads SSM parameters (SSM-typed template parameters, `{{resolve:ssm:...}}`) in the deploy region. */
export function ssmParameterReader(clients: AwsClients, region: string): ParameterReader {
  return async (name, options = {}) => {
    // Loaded on the first read: most templates read no parameter.
    const { GetParameterCommand } = await import('@aws-sdk/client-ssm');
    const ssm = await clients.ssm(region);
    try {
      const { Parameter } = await ssm.send(
        new GetParameterCommand({ Name: name, WithDecryption: options.decrypt }),
      );
      return Parameter?.Value ?? '';
    } catch (error) {
      if (classifyAwsError(error) === 'not-found') {
        throw new CdkdError(
          'SSM_PARAMETER_NOT_FOUND',
          `The SSM parameter ${name} does not exist in ${region}.`,
          {
            hint: 'Create it (aws ssm put-parameter), or pass the parameter value another way.',
            cause: error,
          },
        );
      }
      throw error;
    }
  };
}

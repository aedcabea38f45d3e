import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { deployedStackState } from '../deployed-state.js';
import type { AwsClients } from '../../aws/index.js';
import { CdkdError } from '../../errors.js';
import type { StateBackend } from '../../state/index.js';
import type { LocalService } from './service-model.js';

/** The secrets' values of a deployed service, by name; undefined when its stack is not deployed. */
export type DeployedSecretsReader = (service: LocalService) => Promise<Record<string, string> | undefined>;

export interface DeployedSecretsInput {
  clients: AwsClients;
  backend: () => Promise<StateBackend>;
  /** Where an environment-agnostic stack is deployed: the caller's region. */
  region: string;
}

/**
 * What ECS hands the containers as secrets, read as ECS reads them: each ValueFrom resolved
 * against cdkd's state of the stack (a Ref is the deployed physical ID), a Secrets Manager
 * ARN through GetSecretValue (with its `:json-key:stage:version` suffix), an SSM parameter
 * through GetParameter with decryption.
 */
export function deployedSecretsReader(input: DeployedSecretsInput): DeployedSecretsReader {
  return async (service) => {
    const { region, state } = await deployedStackState(input.backend, service.stack, input.region);
    if (!state) return undefined;
    let account: Promise<string> | undefined;
    const pseudo = async (name: string): Promise<string> => {
      if (name === 'AWS::Region') return region;
      if (name === 'AWS::Partition') return 'aws';
      if (name === 'AWS::URLSuffix') return 'amazonaws.com';
      if (name === 'AWS::AccountId') {
        account ??= (async () => {
          const sts = await input.clients.sts(region);
          return (await sts.send(new GetCallerIdentityCommand({}))).Account ?? '';
        })();
        return account;
      }
      throw unresolved(service, name);
    };
    const resolve = async (expression: unknown): Promise<string> => {
      if (typeof expression === 'string') return expression;
      const object = (expression ?? {}) as Record<string, unknown>;
      if (typeof object.Ref === 'string') {
        if (object.Ref.startsWith('AWS::')) return pseudo(object.Ref);
        const physical = state.document.resources[object.Ref]?.physicalId;
        if (!physical) throw unresolved(service, object.Ref);
        return physical;
      }
      const join = object['Fn::Join'];
      if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) {
        const parts = await Promise.all((join[1] as unknown[]).map(resolve));
        return parts.join(join[0]);
      }
      throw unresolved(service, JSON.stringify(expression));
    };
    const values: Record<string, string> = {};
    for (const container of service.containers)
      for (const secret of container.secrets)
        values[secret.name] = await readSecret(input.clients, region, await resolve(secret.valueFrom)).catch(
          (error: unknown) => {
            throw new CdkdError(
              'LOCAL_SERVICE_UNRESOLVED',
              `ECS service ${service.stack.displayName}/${service.name}: its secret ${secret.name} cannot be read from the deployed stack (${error instanceof Error ? error.message : String(error)}).`,
              {
                hint: 'Check the credentials in use may read the secret (secretsmanager:GetSecretValue, ssm:GetParameter), or redeploy the stack.',
                cause: error,
              },
            );
          },
        );
    return values;
  };
}

async function readSecret(clients: AwsClients, region: string, valueFrom: string): Promise<string> {
  if (/^arn:[^:]+:ssm:/.test(valueFrom) || !valueFrom.startsWith('arn:')) {
    if (valueFrom.startsWith('arn:') || valueFrom.startsWith('/')) {
      const { SSMClient, GetParameterCommand } = await import('@aws-sdk/client-ssm');
      const ssm = await clients.client(SSMClient, region);
      const answer = await ssm.send(
        new GetParameterCommand({ Name: parameterName(valueFrom), WithDecryption: true }),
      );
      return answer.Parameter?.Value ?? '';
    }
  }
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const secrets = await clients.client(SecretsManagerClient, region);
  // arn:aws:secretsmanager:region:account:secret:name[:json-key[:version-stage[:version-id]]]
  const parts = valueFrom.split(':');
  const secretId = valueFrom.startsWith('arn:') ? parts.slice(0, 7).join(':') : valueFrom;
  const [jsonKey, stage, versionId] = valueFrom.startsWith('arn:') ? parts.slice(7) : [];
  const answer = await secrets.send(
    new GetSecretValueCommand({
      SecretId: secretId,
      ...(stage ? { VersionStage: stage } : {}),
      ...(versionId ? { VersionId: versionId } : {}),
    }),
  );
  const text = answer.SecretString ?? '';
  if (!jsonKey) return text;
  const parsed = JSON.parse(text) as Record<string, unknown>;
  return String(parsed[jsonKey] ?? '');
}

/**
 * A parameter's name from its ARN, as SSM writes it: `parameter/name` for a plain name,
 * `parameter/a/b` for the hierarchical `/a/b`.
 */
export function parameterName(valueFrom: string): string {
  const at = valueFrom.indexOf(':parameter/');
  if (!valueFrom.startsWith('arn:') || at < 0) return valueFrom;
  const rest = valueFrom.slice(at + ':parameter/'.length);
  return rest.includes('/') ? `/${rest}` : rest;
}

function unresolved(service: LocalService, what: string): CdkdError {
  return new CdkdError(
    'LOCAL_SERVICE_UNRESOLVED',
    `ECS service ${service.stack.displayName}/${service.name}: a secret's ValueFrom names ${what}, which the deployed stack does not resolve.`,
    { hint: 'Deploy the stack (cdkd deploy) so its secrets exist, then run cdkd local start-service again.' },
  );
}

import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetRandomPasswordCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  RestoreSecretCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure } from './helpers.js';

let sandbox: Sandbox;
let secrets: SecretsManagerClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  secrets = new SecretsManagerClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  secrets.destroy();
  await sandbox.stop();
});

describe('Secrets Manager in the sandbox', () => {
  it('keeps versions, a recovery window, and shows secrets in the inventory', async () => {
    const created = await secrets.send(new CreateSecretCommand({ Name: 'app', SecretString: 'one' }));
    expect(created.ARN).toMatch(/^arn:aws:secretsmanager:us-east-1:123456789012:secret:app-[A-Za-z0-9]{6}$/);
    await secrets.send(new PutSecretValueCommand({ SecretId: 'app', SecretString: 'two' }));
    expect((await secrets.send(new GetSecretValueCommand({ SecretId: created.ARN }))).SecretString).toBe(
      'two',
    );
    expect(
      (await secrets.send(new GetSecretValueCommand({ SecretId: 'app', VersionStage: 'AWSPREVIOUS' })))
        .SecretString,
    ).toBe('one');
    expect(
      (await admin(sandbox, 'GET', 'inventory')).json.secretsmanager['AWS::SecretsManager::Secret'],
    ).toContainEqual(expect.objectContaining({ id: created.ARN, name: 'app' }));
    await secrets.send(new DeleteSecretCommand({ SecretId: 'app', RecoveryWindowInDays: 7 }));
    expect((await failure(secrets.send(new GetSecretValueCommand({ SecretId: 'app' })))).name).toBe(
      'InvalidRequestException',
    );
    expect((await failure(secrets.send(new CreateSecretCommand({ Name: 'app' })))).name).toBe(
      'InvalidRequestException',
    );
    await secrets.send(new RestoreSecretCommand({ SecretId: 'app' }));
    expect((await secrets.send(new GetSecretValueCommand({ SecretId: 'app' }))).SecretString).toBe('two');
  });

  it('answers with the AWS error codes', async () => {
    await secrets.send(new CreateSecretCommand({ Name: 'dup', SecretString: 'x' }));
    expect(await failure(secrets.send(new CreateSecretCommand({ Name: 'dup' })))).toMatchObject({
      name: 'ResourceExistsException',
      status: 400,
    });
    expect((await failure(secrets.send(new GetSecretValueCommand({ SecretId: 'none' })))).name).toBe(
      'ResourceNotFoundException',
    );
    expect(
      (await failure(secrets.send(new DeleteSecretCommand({ SecretId: 'dup', RecoveryWindowInDays: 3 }))))
        .name,
    ).toBe('InvalidParameterException');
    expect(
      (
        await failure(
          secrets.send(
            new DeleteSecretCommand({
              SecretId: 'dup',
              RecoveryWindowInDays: 7,
              ForceDeleteWithoutRecovery: true,
            }),
          ),
        )
      ).name,
    ).toBe('InvalidParameterException');
  });

  it('generates passwords with the requested character classes', async () => {
    const { RandomPassword } = await secrets.send(
      new GetRandomPasswordCommand({
        PasswordLength: 40,
        ExcludePunctuation: true,
        ExcludeCharacters: 'abc',
      }),
    );
    expect(RandomPassword).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(RandomPassword).not.toMatch(/[abc]/);
    expect(RandomPassword).toMatch(/[A-Z]/);
    expect(RandomPassword).toMatch(/[0-9]/);
  });
});

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { secretStringFor } from '../../src/providers/secretsmanager/generate.js';
import { registerSecretsManager } from '../../src/providers/secretsmanager/index.js';
import { SECRETS_REF_ATTRIBUTES } from '../../src/providers/secretsmanager/ref-attributes.js';
import { SecretProvider } from '../../src/providers/secretsmanager/secret.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { failure } from '../sandbox/helpers.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { eventsTo } from '../helpers/recording-io-host.js';

const sandbox = useSandbox();
const ACCOUNT = '000000000000';
const type = 'AWS::SecretsManager::Secret';
const secrets = new SecretProvider();
let context: ProviderContext;
let client: SecretsManagerClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: 'us-east-1' });
  context = { clients, accountId: ACCOUNT, region: 'us-east-1', stackName: 'SecStack' };
  client = await clients.client(SecretsManagerClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox.current));

const value = async (id: string) =>
  (await client.send(new GetSecretValueCommand({ SecretId: id }))).SecretString!;

describe('AWS::SecretsManager::Secret', () => {
  it('generates a value from GenerateSecretString and never exposes it', async () => {
    const properties = {
      Name: 'db-credentials',
      GenerateSecretString: {
        SecretStringTemplate: '{"username":"admin"}',
        GenerateStringKey: 'password',
        PasswordLength: '20',
        ExcludePunctuation: 'true',
      },
    };
    const created = await secrets.create({ logicalId: 'Db', type, properties }, context);
    const stored = JSON.parse(await value(created.physicalId)) as { username: string; password: string };
    expect(stored.username).toBe('admin');
    expect(stored.password).toMatch(/^[A-Za-z0-9]{20}$/);
    const read = await secrets.read(
      { logicalId: 'Db', type, physicalId: created.physicalId, properties },
      context,
    );
    const exposed = JSON.stringify([created, read]);
    expect(exposed).not.toContain(stored.password);
    expect(read!.properties).toEqual({ Name: 'db-credentials' });
  });

  it('updates in place (description, value, tags) and deletes at once, as CloudFormation does', async () => {
    const properties = {
      Name: 'api-key',
      SecretString: 'one',
      Description: 'first',
      Tags: [{ Key: 'a', Value: '1' }],
    };
    const created = await secrets.create({ logicalId: 'Key', type, properties }, context);
    const request = { logicalId: 'Key', type, physicalId: created.physicalId };
    const next = {
      ...properties,
      SecretString: 'two',
      Description: 'second',
      Tags: [{ Key: 'b', Value: '2' }],
    };
    await secrets.update({ ...request, properties: next, previousProperties: properties }, context);
    expect(await value(created.physicalId)).toBe('two');
    expect((await secrets.read({ ...request, properties: next }, context))!.properties).toEqual({
      Name: 'api-key',
      Description: 'second',
      Tags: [{ Key: 'b', Value: '2' }],
    });
    await secrets.delete({ ...request, properties: next }, context);
    expect((await failure(value(created.physicalId))).name).toBe('ResourceNotFoundException');
    // Deleted without a recovery window: the name is free again at once.
    const again = await secrets.create({ logicalId: 'Key', type, properties }, context);
    await secrets.delete({ ...request, physicalId: again.physicalId, properties }, context);
  });

  it('refuses SecretString with GenerateSecretString, and a half-given template', async () => {
    await expect(
      secrets.create(
        { logicalId: 'X', type, properties: { SecretString: 'a', GenerateSecretString: {} } },
        context,
      ),
    ).rejects.toMatchObject({ code: 'SECRET_VALUE_CONFLICT' });
    expect(() => secretStringFor({ GenerateStringKey: 'p' }, 'pw')).toThrow(/both SecretStringTemplate/);
    expect(secretStringFor({}, 'pw')).toBe('pw');
  });

  it('reports the secret made when its read-back fails; the retry takes it back, value unchanged', async () => {
    const properties = {
      GenerateSecretString: { PasswordLength: 16, ExcludePunctuation: true },
    };
    const request = { logicalId: 'Unread', type, properties, idempotencyToken: 'sec-unread' };
    await failNext(sandbox.current, 'secretsmanager', 'DescribeSecret', {
      errorCode: 'InvalidParameterException',
    });
    const made = await madeError(secrets.create(request, context), 'InvalidParameterException');
    // No creation identity: DescribeSecret is what gives its creation date.
    expect(made.made).toEqual({ physicalId: expect.stringContaining(':secret:SecStack-Unread-') });
    const live = await secrets.read({ ...request, physicalId: made.made.physicalId }, context);
    expect(live).toBeDefined();
    const generated = await value(made.made.physicalId);
    const retried = await secrets.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
    expect(retried.creationIdentity).toEqual(live!.creationIdentity);
    expect(await value(retried.physicalId)).toBe(generated);
  });

  it('names an unnamed secret and reports what it cannot send', async () => {
    const created = await secrets.create({ logicalId: 'Unnamed', type, properties: {} }, context);
    expect(created.physicalId).toMatch(/:secret:SecStack-Unnamed-[A-Z0-9]{12}-[A-Za-z0-9]{6}$/);
    expect(secrets.uncoveredProperties(type, { Name: 'n', ReplicaRegions: [] })).toEqual(['ReplicaRegions']);
    expect(
      secrets.canUpdateInPlace(type, [
        'SecretString',
        'GenerateSecretString',
        'Description',
        'KmsKeyId',
        'Tags',
      ]),
    ).toBe(true);
    expect(secrets.canUpdateInPlace(type, ['Name'])).toBe(false);
  });

  it.each(Object.entries(SECRETS_REF_ATTRIBUTES))('Ref and GetAtt row %s', async (_type, row) => {
    const created = await secrets.create(
      { logicalId: 'Row', type, properties: { Name: 'ref-row' } },
      context,
    );
    expect(row.ref).toBe('physicalId');
    expect(created.ref).toBeUndefined();
    expect(created.physicalId).toMatch(
      /^arn:aws:secretsmanager:us-east-1:000000000000:secret:ref-row-[A-Za-z0-9]{6}$/,
    );
    expect(Object.keys(created.attributes)).toEqual(Object.keys(row.attributes));
    expect(created.attributes.Id).toBe(created.physicalId);
  });

  it('a Name change replaces the secret through the engine', async () => {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'secrets-engine-state' }));
    const backend = await openStateBackend(clients, 'secrets-engine-state', 'cdkd');
    const registry = new ProviderRegistry(new CloudControlProvider());
    registerSecretsManager(registry);
    const engine = await createEngine({
      backend,
      clients,
      registry,
      io: eventsTo(() => {}),
      command: 'deploy',
      regions: ['us-east-1'],
    });
    const template = (name: string) => ({
      Resources: { S: { Type: type, Properties: { Name: name, SecretString: 'v' } } },
    });
    const request = {
      stateName: 'SecReplace',
      stackName: 'SecReplace',
      region: 'us-east-1',
      accountId: ACCOUNT,
    };
    const options = { concurrency: 2, forceStatefulRecreation: true };
    await engine.deploy({ ...request, template: template('first-secret') }, options);
    await engine.deploy({ ...request, template: template('second-secret') }, options);
    expect(await value('second-secret')).toBe('v');
    expect((await failure(value('first-secret'))).name).toBe('ResourceNotFoundException');
  });
});

import {
  CreateAliasCommand,
  CreateKeyCommand,
  DeleteAliasCommand,
  DescribeKeyCommand,
  EnableKeyRotationCommand,
  KMSClient,
  PutKeyPolicyCommand,
  ScheduleKeyDeletionCommand,
  UpdateKeyDescriptionCommand,
} from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure } from './helpers.js';

let sandbox: Sandbox;
let kms: KMSClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  kms = new KMSClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  kms.destroy();
  await sandbox.stop();
});

describe('KMS in the sandbox', () => {
  it('makes keys, resolves aliases, and lists both in the inventory', async () => {
    const key = (await kms.send(new CreateKeyCommand({ Description: 'k' }))).KeyMetadata!;
    expect(key).toMatchObject({
      KeyState: 'Enabled',
      Arn: `arn:aws:kms:us-east-1:123456789012:key/${key.KeyId}`,
    });
    await kms.send(new CreateAliasCommand({ AliasName: 'alias/k', TargetKeyId: key.KeyId }));
    expect((await kms.send(new DescribeKeyCommand({ KeyId: 'alias/k' }))).KeyMetadata!.KeyId).toBe(key.KeyId);
    const inventory = (await admin(sandbox, 'GET', 'inventory')).json.kms;
    expect(inventory['AWS::KMS::Key']).toContainEqual(expect.objectContaining({ id: key.KeyId }));
    expect(inventory['AWS::KMS::Alias']).toContainEqual(expect.objectContaining({ id: 'alias/k' }));
  });

  it('answers with the AWS error codes', async () => {
    const key = (await kms.send(new CreateKeyCommand({}))).KeyMetadata!;
    expect(await failure(kms.send(new DescribeKeyCommand({ KeyId: 'nope' })))).toMatchObject({
      name: 'NotFoundException',
      status: 400,
    });
    await kms.send(new CreateAliasCommand({ AliasName: 'alias/dup', TargetKeyId: key.KeyId }));
    expect(
      (await failure(kms.send(new CreateAliasCommand({ AliasName: 'alias/dup', TargetKeyId: key.KeyId }))))
        .name,
    ).toBe('AlreadyExistsException');
    expect(
      (await failure(kms.send(new CreateAliasCommand({ AliasName: 'alias/aws/x', TargetKeyId: key.KeyId }))))
        .name,
    ).toBe('InvalidAliasNameException');
    expect(
      (await failure(kms.send(new CreateAliasCommand({ AliasName: 'bad', TargetKeyId: key.KeyId })))).name,
    ).toBe('ValidationException');
    expect((await failure(kms.send(new DeleteAliasCommand({ AliasName: 'alias/none' })))).name).toBe(
      'NotFoundException',
    );
    expect(
      (
        await failure(
          kms.send(new PutKeyPolicyCommand({ KeyId: key.KeyId, PolicyName: 'default', Policy: '{' })),
        )
      ).name,
    ).toBe('MalformedPolicyDocumentException');
    const hmac = (
      await kms.send(new CreateKeyCommand({ KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' }))
    ).KeyMetadata!;
    expect((await failure(kms.send(new EnableKeyRotationCommand({ KeyId: hmac.KeyId })))).name).toBe(
      'UnsupportedOperationException',
    );
    expect(
      (await failure(kms.send(new ScheduleKeyDeletionCommand({ KeyId: key.KeyId, PendingWindowInDays: 3 }))))
        .name,
    ).toBe('ValidationException');
    await kms.send(new ScheduleKeyDeletionCommand({ KeyId: key.KeyId, PendingWindowInDays: 7 }));
    expect(
      (await failure(kms.send(new UpdateKeyDescriptionCommand({ KeyId: key.KeyId, Description: 'x' })))).name,
    ).toBe('KMSInvalidStateException');
  });
});

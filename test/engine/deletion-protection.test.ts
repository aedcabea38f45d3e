import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { REGION, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';

// Spec 002 "Deletion protection" on the sandbox: a table whose DeletionProtectionEnabled is on
// is refused by DynamoDB's delete (the message names --remove-protection), the stateful guard's
// refusal notes it, and cdkd destroy --remove-protection turns it off first, then deletes.
const h = useSandboxEngine('deletion-protection');

const table = (name: string, protectedTable: boolean | string = true) => ({
  Table: {
    Type: 'AWS::DynamoDB::Table',
    Properties: {
      TableName: name,
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      DeletionProtectionEnabled: protectedTable,
    },
  },
});

async function describeTable(name: string) {
  const client = await h.clients.client(DynamoDBClient, REGION);
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch {
    return undefined;
  }
}

async function record(stack: string) {
  return (await h.backend.store.read({ stackName: stack, region: REGION }))?.document.resources.Table;
}

describe('a DynamoDB table with DeletionProtectionEnabled', () => {
  it('is created protected, its read-back stored beside what was applied', async () => {
    await h.deploy('ProtectedCreate', table('protected-create'));
    expect((await describeTable('protected-create'))?.DeletionProtectionEnabled).toBe(true);
    expect((await record('ProtectedCreate'))?.observedProperties).toEqual({
      TableName: 'protected-create',
      DeletionProtectionEnabled: true,
    });
  });

  it("the stateful guard's refusal notes the protection", async () => {
    await expect(h.deploy('ProtectedCreate', table('protected-renamed'))).rejects.toMatchObject({
      code: 'STATEFUL_REPLACE_BLOCKED',
      hint: expect.stringContaining('Table has deletion protection on (DeletionProtectionEnabled)'),
    });
  });

  it('cdkd destroy without --remove-protection fails on it, naming the flag and the command', async () => {
    await h.deploy('ProtectedDestroy', table('protected-destroy'));
    const engine = await h.engine();
    const failure = await engine
      .destroy(stackIdentity('ProtectedDestroy'), { concurrency: 4 })
      .catch((e) => e);
    expect(failure).toMatchObject({ code: 'DESTROY_FAILED' });
    expect(String(failure.message)).toContain(
      'DynamoDB refuses to delete the table protected-destroy: its deletion protection is on; run cdkd destroy ' +
        '--remove-protection to turn it off first, or turn it off with: aws dynamodb update-table --table-name ' +
        'protected-destroy --no-deletion-protection-enabled.',
    );
    expect(await describeTable('protected-destroy')).toBeDefined();
    expect(await record('ProtectedDestroy')).toBeDefined();
  });

  it('cdkd destroy --remove-protection turns protection off first, then deletes the table', async () => {
    const engine = await h.engine();
    const result = await engine.destroy(stackIdentity('ProtectedDestroy'), {
      concurrency: 4,
      removeProtection: true,
    });
    expect(result.deleted).toEqual(['Table']);
    expect(await describeTable('protected-destroy')).toBeUndefined();
  });

  it("an update turns protection off in place ('false' read as CloudFormation reads it)", async () => {
    await h.deploy('ProtectedUpdate', table('protected-update'));
    await h.deploy('ProtectedUpdate', table('protected-update', 'false'));
    expect((await describeTable('protected-update'))?.DeletionProtectionEnabled).toBe(false);
    expect((await record('ProtectedUpdate'))?.observedProperties?.DeletionProtectionEnabled).toBe(false);
    await (await h.engine()).destroy(stackIdentity('ProtectedUpdate'), { concurrency: 4 });
    expect(await describeTable('protected-update')).toBeUndefined();
  });
});

describe("a type's own protection refusal at pre-flight", () => {
  const protectedGroup = (name: string) => ({
    Logs: {
      Type: 'AWS::Logs::LogGroup',
      Properties: { LogGroupName: name, DeletionProtectionEnabled: true },
    },
  });

  it('a protected log group is not replaced, even under --force-stateful-recreation, and nothing is touched', async () => {
    await h.deploy('ProtectedGroup', protectedGroup('/protected/a'));
    const before = await h.backend.store.read({ stackName: 'ProtectedGroup', region: REGION });
    await expect(
      h.deploy('ProtectedGroup', protectedGroup('/protected/b'), { forceStatefulRecreation: true }),
    ).rejects.toMatchObject({
      code: 'DELETION_PROTECTED',
      hint: expect.stringContaining(
        'aws logs put-log-group-deletion-protection --log-group-identifier /protected/a --no-deletion-protection-enabled',
      ),
    });
    const after = await h.backend.store.read({ stackName: 'ProtectedGroup', region: REGION });
    expect(after?.document.resources).toEqual(before?.document.resources);
  });
});

describe('cdkd destroy --remove-protection through Cloud Control', () => {
  it('updates the recorded protection off, then deletes', async () => {
    await h.deploy('ProtectedLedger', {
      Ledger: {
        Type: 'AWS::QLDB::Ledger',
        Properties: { PermissionsMode: 'ALLOW_ALL', DeletionProtection: true },
      },
    });
    await fetch(`${h.url}/_sandbox/calls`, { method: 'DELETE' });
    const result = await (
      await h.engine()
    ).destroy(stackIdentity('ProtectedLedger'), { concurrency: 4, removeProtection: true });
    expect(result.deleted).toEqual(['Ledger']);
    const calls = (await (await fetch(`${h.url}/_sandbox/calls`)).json()) as {
      calls: Record<string, { count: number }>;
    };
    const cc = Object.fromEntries(
      Object.entries(calls.calls)
        .filter(([key]) => /:(UpdateResource|DeleteResource)$/.test(key))
        .map(([key, value]) => [key.split(':')[1], value.count]),
    );
    expect(cc).toEqual({ UpdateResource: 1, DeleteResource: 1 });
  });
});

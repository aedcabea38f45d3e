import { describe, expect, it, vi } from 'vitest';
import type { AwsClients } from '../../src/aws/client-factory.js';
import { clientsForQuery } from '../../src/context-providers/query-clients.js';

class FakeClient {
  constructor(readonly config: never) {}
}

/** AwsClients whose clients say which credentials (label) and region they were built with. */
function fakeClients(label: string) {
  const clients = {
    label,
    client: vi.fn(async (_Client: unknown, region?: string) => ({ label, region })),
    assumingRole: vi.fn(
      (_role: { roleArn: string; externalId?: string; sessionName: string }) =>
        fakeClients('assumed').clients,
    ),
  };
  return { clients: clients as unknown as AwsClients & typeof clients };
}

const caller = async () => ({ account: '111111111111', region: 'us-east-1' });

describe('clientsForQuery: the credentials and region a lookup runs under', () => {
  it("uses the caller's credentials for the query's own account, in the query's region", async () => {
    const { clients } = fakeClients('base');
    const client = await clientsForQuery(clients, caller, { account: '111111111111', region: 'eu-west-1' });
    expect(await client(FakeClient)).toEqual({ label: 'base', region: 'eu-west-1' });
    expect(clients.assumingRole).not.toHaveBeenCalled();
  });

  it("assumes the query's lookup role for another account, its placeholders filled in", async () => {
    const { clients } = fakeClients('base');
    const client = await clientsForQuery(clients, caller, {
      account: '222222222222',
      region: 'cn-north-1',
      lookupRoleArn:
        'arn:${AWS::Partition}:iam::222222222222:role/cdk-hnb659fds-lookup-role-222222222222-cn-north-1',
      lookupRoleExternalId: 'ext',
    });
    expect(clients.assumingRole).toHaveBeenCalledWith({
      roleArn: 'arn:aws-cn:iam::222222222222:role/cdk-hnb659fds-lookup-role-222222222222-cn-north-1',
      externalId: 'ext',
      sessionName: 'cdkd-context-lookup',
    });
    expect(await client(FakeClient)).toEqual({ label: 'assumed', region: 'cn-north-1' });
  });

  it('refuses another account with no lookup role, naming both accounts', async () => {
    const { clients } = fakeClients('base');
    await expect(
      clientsForQuery(clients, caller, { account: '222222222222', region: 'us-east-1' }),
    ).rejects.toMatchObject({
      code: 'CONTEXT_LOOKUP_FAILED',
      message: expect.stringMatching(/account 222222222222.*account 111111111111/),
    });
  });

  it('uses the credentials as they are when the caller account is unknown', async () => {
    const { clients } = fakeClients('base');
    const client = await clientsForQuery(clients, async () => ({}), {
      account: '222222222222',
      region: 'us-east-1',
    });
    expect(await client(FakeClient)).toEqual({ label: 'base', region: 'us-east-1' });
  });
});

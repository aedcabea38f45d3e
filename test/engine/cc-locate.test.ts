import { setTimeout as realSleep } from 'node:timers/promises';
import { CreateResourceCommand, GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/providers/clock.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { ProviderContext, ResourceRequest } from '../../src/providers/provider.js';
import type { JournalDocument, JournalOperation } from '../../src/state/documents/journal-document.js';
import { failureOf } from '../helpers/error-chain.js';
import { liveResources } from '../helpers/inventory.js';
import { NEXT_CREATE_QUEUE_FAILS, REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

// Cloud Control's `locate`: what the request a create was accepted as made, read by its
// journaled request token, so `cdkd rollback` settles an interrupted Cloud Control create.
const sandbox = useSandboxEngine('cc-locate-state');
const VPC = 'AWS::EC2::VPC';

/** Virtual time with short real waits, so a held request ends quickly. */
const clock: Clock = { now: () => Date.now(), sleep: () => realSleep(20) };
const cc = new CloudControlProvider({ clock });

function context(): ProviderContext {
  return { clients: sandbox.clients, accountId: '000000000000', region: REGION, stackName: 'CcLocate' };
}

function vpcRequest(token: string, cidr = '10.20.0.0/16'): ResourceRequest {
  return { logicalId: 'Vpc', type: VPC, properties: { CidrBlock: cidr }, idempotencyToken: token };
}

/** Sends a create as a process killed during its wait left it: accepted, never waited on. */
async function acceptedCreate(type: string, properties: Record<string, unknown>, token: string) {
  const client = await sandbox.clients.cloudControl(REGION);
  const accepted = await client.send(
    new CreateResourceCommand({
      TypeName: type,
      DesiredState: JSON.stringify(properties),
      ClientToken: token,
    }),
  );
  return accepted.ProgressEvent!.RequestToken!;
}

async function vpcExists(id: string): Promise<boolean> {
  const client = await sandbox.clients.cloudControl(REGION);
  return client.send(new GetResourceCommand({ TypeName: VPC, Identifier: id })).then(
    () => true,
    () => false,
  );
}

beforeEach(async () => {
  await fetch(`${sandbox.url}/_sandbox/latency`, { method: 'PUT', body: '{}' });
});

describe('CloudControlProvider.locate on the sandbox', () => {
  it('answers the identifier of what the accepted request made, waiting for a request still in progress', async () => {
    const accepted: string[] = [];
    const request = vpcRequest('loc-made');
    const created = await cc.create(
      { ...request, onAccepted: async (token) => void accepted.push(token) },
      context(),
    );
    expect(accepted).toHaveLength(1);
    expect(await cc.locate({ ...request, acceptedRequest: accepted[0]! }, context())).toEqual({
      physicalId: created.physicalId,
    });

    await fetch(`${sandbox.url}/_sandbox/latency`, {
      method: 'PUT',
      body: JSON.stringify({ types: { [VPC]: { create: 300 } } }),
    });
    const pending = await acceptedCreate(VPC, { CidrBlock: '10.21.0.0/16' }, 'loc-pending');
    const located = await cc.locate({ ...vpcRequest('loc-pending'), acceptedRequest: pending }, context());
    expect(located).toEqual({ physicalId: expect.stringMatching(/^vpc-/) });
    expect(await vpcExists((located as { physicalId: string }).physicalId)).toBe(true);
  });

  it("answers 'none' for a request that ended FAILED, and 'unknown' without a request Cloud Control knows", async () => {
    const name = { LogGroupName: 'cc-locate-taken' };
    await cc.create({ logicalId: 'First', type: 'AWS::Logs::LogGroup', properties: name }, context());
    const failed = await acceptedCreate('AWS::Logs::LogGroup', name, 'loc-failed');
    const request = { logicalId: 'Second', type: 'AWS::Logs::LogGroup', properties: name };
    expect(await cc.locate({ ...request, acceptedRequest: failed }, context())).toBe('none');

    expect(await cc.locate(vpcRequest('loc-none'), context())).toBe('unknown');
    expect(await cc.locate({ ...vpcRequest('loc-x'), acceptedRequest: 'no-such-request' }, context())).toBe(
      'unknown',
    );
  });

  // Issue 25 item 11: a process killed while CreateResource was on its way journaled no request token.
  describe('without a journaled request, by the create ClientToken', () => {
    const now = () => new Date().toISOString();

    it('finds the request Cloud Control received, whose answer the process never read', async () => {
      const request = { ...vpcRequest('loc-received', '10.22.0.0/16'), journaledAt: now() };
      await acceptedCreate(VPC, request.properties, 'loc-received');
      const located = await cc.locate(request, context());
      expect(located).toEqual({ physicalId: expect.stringMatching(/^vpc-/) });
      expect(await vpcExists((located as { physicalId: string }).physicalId)).toBe(true);
    });

    const vpcs = async () => (await liveResources(sandbox.url)).filter((live) => live.type === VPC);

    it('a create Cloud Control never received made nothing; the request asking started is cancelled', async () => {
      await fetch(`${sandbox.url}/_sandbox/latency`, {
        method: 'PUT',
        body: JSON.stringify({ types: { [VPC]: { create: 1000 } } }),
      });
      const before = await vpcs();
      const request = { ...vpcRequest('loc-never-sent', '10.23.0.0/16'), journaledAt: now() };
      expect(await cc.locate(request, context())).toBe('none');
      expect(await vpcs()).toEqual(before);
    });

    it('one the cancel came too late for made a resource: it counts as the create’s, to be deleted as such', async () => {
      const before = await vpcs();
      const request = { ...vpcRequest('loc-too-late', '10.25.0.0/16'), journaledAt: now() };
      const located = await cc.locate(request, context());
      expect(located).toEqual({ physicalId: expect.stringMatching(/^vpc-/) });
      expect(await vpcs()).toHaveLength(before.length + 1);
    });

    it('past the 36 hours Cloud Control honours a ClientToken for, proves nothing', async () => {
      const journaledAt = new Date(Date.now() - 40 * 3600_000).toISOString();
      await acceptedCreate(VPC, { CidrBlock: '10.24.0.0/16' }, 'loc-old');
      expect(await cc.locate({ ...vpcRequest('loc-old', '10.24.0.0/16'), journaledAt }, context())).toBe(
        'unknown',
      );
    });
  });
});

describe('cdkd rollback of a Cloud Control create a killed deploy left in flight', () => {
  async function killedDeploy(stackName: string, operation: Partial<JournalOperation>) {
    await sandbox.deploy(stackName, {
      Keep: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'kept' } },
    });
    const document: JournalDocument = {
      version: 1,
      stackName,
      region: REGION,
      segments: [
        {
          runId: `killed-${stackName}`,
          startedAt: new Date().toISOString(),
          cdkdVersion: 'test',
          flags: {},
          previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
          status: 'interrupted',
          operations: [
            {
              seq: 0,
              logicalId: 'Vpc',
              action: 'create',
              type: VPC,
              status: 'in-flight',
              attempted: { CidrBlock: '10.30.0.0/16' },
              ...operation,
            } as JournalOperation,
          ],
          importMarks: [],
        },
      ],
    };
    await sandbox.backend.journals.writer({ stackName, region: REGION })(document, undefined);
  }

  it('finds the VPC the journaled request made and deletes it (exit 0, journal gone)', async () => {
    const token = 'killed-vpc-1';
    const requestToken = await acceptedCreate(VPC, { CidrBlock: '10.30.0.0/16' }, token);
    await killedDeploy('CcKilled', { idempotencyToken: token, acceptedRequest: requestToken });
    const located = await cc.locate({ ...vpcRequest(token), acceptedRequest: requestToken }, context());
    const vpcId = (located as { physicalId: string }).physicalId;
    expect(await vpcExists(vpcId)).toBe(true);

    const result = await sandbox.rollback('CcKilled');
    expect(result.exitCode).toBe(0);
    expect(await vpcExists(vpcId)).toBe(false);
    expect(await sandbox.backend.journals.read({ stackName: 'CcKilled', region: REGION })).toBeUndefined();
  });

  it('without a journaled request token, finds by its ClientToken the VPC Cloud Control made and deletes it', async () => {
    const token = 'killed-vpc-2';
    await acceptedCreate(VPC, { CidrBlock: '10.30.0.0/16' }, token);
    await killedDeploy('CcReceived', { idempotencyToken: token, createdVia: 'cc-api' });
    const located = await cc.locate(
      { ...vpcRequest(token, '10.30.0.0/16'), journaledAt: new Date().toISOString() },
      context(),
    );
    const vpcId = (located as { physicalId: string }).physicalId;
    expect(await vpcExists(vpcId)).toBe(true);

    const result = await sandbox.rollback('CcReceived');
    expect(result.exitCode).toBe(0);
    expect(await vpcExists(vpcId)).toBe(false);
    expect(await sandbox.backend.journals.read({ stackName: 'CcReceived', region: REGION })).toBeUndefined();
  });
});

describe('a Cloud Control create the engine sends', () => {
  it('journals the request token it was accepted as before it waits', async () => {
    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    const failure = await sandbox
      .deploy(
        'CcJournaled',
        {
          // A property the VPC's SDK provider does not send routes it through Cloud Control.
          Vpc: { Type: VPC, Properties: { CidrBlock: '10.40.0.0/16', Ipv4NetmaskLength: 16 } },
          Broken: { Type: 'AWS::SQS::Queue', DependsOn: 'Vpc' },
        },
        { rollback: false },
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failureOf(failure).codes).toContain('RESOURCE_FAILED');
    const journal = await sandbox.backend.journals.read({ stackName: 'CcJournaled', region: REGION });
    const operations = journal!.document.segments.flatMap((segment) => segment.operations);
    const create = operations.find((op) => op.logicalId === 'Vpc')!;
    expect(create).toMatchObject({ status: 'completed', acceptedRequest: expect.any(String) });
    // The token names the request that made the recorded VPC.
    expect(
      await cc.locate(
        { ...vpcRequest(create.idempotencyToken!), acceptedRequest: create.acceptedRequest! },
        context(),
      ),
    ).toEqual({ physicalId: create.physicalId });
  });
});

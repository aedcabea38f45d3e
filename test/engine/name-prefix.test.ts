import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { describe, expect, it } from 'vitest';
import type { DeployEvent } from '../../src/engine/events.js';
import type { JournalSegment } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { iamRole, NEXT_CREATE_QUEUE_FAILS, REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * --prefix-user-supplied-names with the real IAM provider on the sandbox: a deploy sends
 * explicit names as `{stack}-{name}` and journals the setting; a rollback re-creates under
 * the journaled setting (spec 001, "Names of re-created resources").
 */
const sandbox = useSandboxEngine('name-prefix');
let counter = 0;

function nextStack(): string {
  counter += 1;
  return `Prefix${counter}`;
}

async function roleExists(name: string): Promise<boolean> {
  const iam = await sandbox.clients.client(IAMClient);
  return iam.send(new GetRoleCommand({ RoleName: name })).then(
    () => true,
    (error: { name?: string }) => {
      if (error.name === 'NoSuchEntityException' || error.name === 'NoSuchEntity') return false;
      throw error;
    },
  );
}

async function record(stackName: string, logicalId: string): Promise<ResourceRecord> {
  return (await sandbox.backend.store.read({ stackName, region: REGION }))!.document.resources[logicalId]!;
}

describe('cdkd deploy --prefix-user-supplied-names', () => {
  it('sends an explicit role name as {stack}-{name}; without the flag, unchanged', async () => {
    const prefixed = nextStack();
    await sandbox.deploy(
      prefixed,
      { Role: iamRole({ RoleName: 'svc-a' }) },
      { prefixUserSuppliedNames: true },
    );
    expect((await record(prefixed, 'Role')).physicalId).toBe(`${prefixed}-svc-a`);
    expect(await roleExists(`${prefixed}-svc-a`)).toBe(true);
    expect(await roleExists('svc-a')).toBe(false);
    // The record keeps the template's name: the rewrite is the provider's, not a property change.
    expect((await record(prefixed, 'Role')).properties.RoleName).toBe('svc-a');

    const plain = nextStack();
    await sandbox.deploy(plain, { Role: iamRole({ RoleName: 'svc-b' }) });
    expect((await record(plain, 'Role')).physicalId).toBe('svc-b');
  });

  it('records the setting in the journal of a failed deploy', async () => {
    const stackName = nextStack();
    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(
      sandbox.deploy(
        stackName,
        { Role: iamRole({ RoleName: 'svc-c' }), Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'Role' } },
        { prefixUserSuppliedNames: true, rollback: false },
      ),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    const journal = await sandbox.backend.journals.read({ stackName, region: REGION });
    expect(journal!.document.segments[0]!.flags).toEqual({ prefixUserSuppliedNames: true });
    // The automatic rollback of the same failure deletes the prefixed role it made.
    await sandbox.rollback(stackName);
    expect(await roleExists(`${stackName}-svc-c`)).toBe(false);
  });
});

/**
 * A completed create-first replacement (RoleName `old` → `new`) whose old role the cleanup
 * deleted: the rollback re-creates the old role, then deletes the new one.
 */
async function replacedRole(input: {
  oldName: string;
  oldPhysicalId: (stackName: string) => string;
  deployPrefix: boolean;
  journalFlags: JournalSegment['flags'];
  /** The new copy's name; by default `{oldName}-new`. */
  newName?: string;
}): Promise<string> {
  const stackName = nextStack();
  await sandbox.deploy(
    stackName,
    { Role: iamRole({ RoleName: input.newName ?? `${input.oldName}-new` }) },
    { prefixUserSuppliedNames: input.deployPrefix },
  );
  const current = await record(stackName, 'Role');
  const before: ResourceRecord = {
    ...current,
    physicalId: input.oldPhysicalId(stackName),
    properties: { ...current.properties, RoleName: input.oldName },
  };
  const segment: JournalSegment = {
    runId: `hand-${stackName}`,
    startedAt: new Date().toISOString(),
    cdkdVersion: 'test',
    flags: input.journalFlags,
    previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
    status: 'failed',
    operations: [
      {
        seq: 0,
        logicalId: 'Role',
        action: 'replace',
        type: 'AWS::IAM::Role',
        status: 'completed',
        before,
        after: current,
        physicalId: current.physicalId,
        previousPhysicalId: before.physicalId,
        verdict: { replacement: true, order: 'create-first', oldDeleted: true },
      },
    ],
    importMarks: [],
  };
  await sandbox.backend.journals.writer({ stackName, region: REGION })(
    { version: 1, stackName, region: REGION, segments: [segment] },
    undefined,
  );
  return stackName;
}

async function rollBack(
  stackName: string,
  fallback = { value: false, description: 'no prefix (from the default)' },
) {
  return sandbox.rollback(stackName, { namePrefixFallback: () => fallback });
}

const warnings = () =>
  sandbox.events.filter(
    (event): event is Extract<DeployEvent, { kind: 'warning' }> => event.kind === 'warning',
  );

describe('a rollback re-creating a resource whose explicit name the setting rewrites', () => {
  it('re-creates it under the setting the journal records', async () => {
    const stackName = await replacedRole({
      oldName: 'svc-d',
      oldPhysicalId: (stack) => `${stack}-svc-d`,
      deployPrefix: true,
      journalFlags: { prefixUserSuppliedNames: true },
    });
    expect((await rollBack(stackName)).exitCode).toBe(0);
    expect(await roleExists(`${stackName}-svc-d`)).toBe(true);
    expect(await roleExists(`${stackName}-svc-d-new`)).toBe(false);
    expect((await record(stackName, 'Role')).physicalId).toBe(`${stackName}-svc-d`);
    expect(warnings()).toEqual([]);
  });

  it('a re-create colliding on the prefixed name frees it only because the new copy’s physical id shows that name', async () => {
    const stackName = await replacedRole({
      oldName: 'svc-h',
      newName: 'svc-h',
      oldPhysicalId: (stack) => `${stack}-svc-h`,
      deployPrefix: true,
      journalFlags: { prefixUserSuppliedNames: true },
    });
    const result = await rollBack(stackName);
    expect(result.exitCode).toBe(0);
    const line = sandbox.events.find((event) => event.kind === 'rollback' && event.logicalId === 'Role');
    expect(line).toMatchObject({ message: expect.stringContaining(`freed the name ${stackName}-svc-h`) });
    expect(await roleExists(`${stackName}-svc-h`)).toBe(true);
  });

  it('keeps the name of one an earlier deploy made under the other setting, and says so', async () => {
    const stackName = await replacedRole({
      oldName: 'svc-e',
      oldPhysicalId: () => 'svc-e',
      deployPrefix: true,
      journalFlags: { prefixUserSuppliedNames: true },
    });
    expect((await rollBack(stackName)).exitCode).toBe(0);
    expect(await roleExists('svc-e')).toBe(true);
    expect(await roleExists(`${stackName}-svc-e`)).toBe(false);
    expect((await record(stackName, 'Role')).physicalId).toBe('svc-e');
    const line = sandbox.events.find((event) => event.kind === 'rollback' && event.logicalId === 'Role');
    expect(line).toMatchObject({
      message: expect.stringContaining('made without --prefix-user-supplied-names'),
    });
    expect(warnings()).toEqual([]);
  });

  it('warns when neither setting gives the name, and re-creates it under the name its physical id shows', async () => {
    const stackName = await replacedRole({
      oldName: 'svc-f',
      oldPhysicalId: () => 'Elsewhere-svc-f',
      deployPrefix: false,
      journalFlags: { prefixUserSuppliedNames: false },
    });
    expect((await rollBack(stackName)).exitCode).toBe(0);
    expect(await roleExists('Elsewhere-svc-f')).toBe(true);
    expect(warnings()).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('neither name setting gives its name Elsewhere-svc-f'),
      }),
    ]);
  });

  it('a journal that does not record the setting takes the fallback and warns which one it chose', async () => {
    const stackName = await replacedRole({
      oldName: 'svc-g',
      oldPhysicalId: (stack) => `${stack}-svc-g`,
      deployPrefix: true,
      journalFlags: {},
    });
    const result = await rollBack(stackName, {
      value: true,
      description: 'the stack-name prefix (from CDKD_PREFIX_USER_SUPPLIED_NAMES)',
    });
    expect(result.exitCode).toBe(0);
    expect(await roleExists(`${stackName}-svc-g`)).toBe(true);
    expect(warnings()).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(
          'does not record --prefix-user-supplied-names; the rollback uses the stack-name prefix (from CDKD_PREFIX_USER_SUPPLIED_NAMES)',
        ),
      }),
    ]);
    expect(warnings()[0]!.message).toContain(
      `CDKD_PREFIX_USER_SUPPLIED_NAMES=true cdkd rollback ${stackName}`,
    );
  });
});

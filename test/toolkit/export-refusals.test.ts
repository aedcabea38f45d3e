import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { beforeAll, describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { emptyJournal, emptyStateDocument, type StackRef, type StateBackend } from '../../src/state/index.js';
import { exportStack } from '../../src/toolkit/export/index.js';
import { Session } from '../../src/toolkit/session/session.js';
import { silentIo } from '../../src/toolkit/io.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd export's refusals and its locks, through the toolkit service on the sandbox: state
// documents written directly stand for stacks cdkd deployed.
const sandbox = useSandbox();
let backend: StateBackend;
const session = () => new Session({ statePrefix: 'cdkd' });
const REGION = 'us-east-1';

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: sandboxEnv(sandbox.current.url) })).code).toBe(0);
  backend = await session().stateBackend();
});

async function recordStack(
  stackName: string,
  resources: Record<string, { type: string; physicalId: string }>,
) {
  const document = emptyStateDocument(stackName, REGION);
  document.template = {
    Resources: Object.fromEntries(Object.entries(resources).map(([id, r]) => [id, { Type: r.type }])),
  };
  for (const [id, r] of Object.entries(resources)) {
    document.resources[id] = {
      type: r.type,
      physicalId: r.physicalId,
      properties: {},
      attributes: {},
      provisionedBy: 'sdk',
      dependencies: [],
    };
  }
  await backend.store.save({ stackName, region: REGION }, document, undefined);
}

async function cfnHolds(stackName: string): Promise<boolean> {
  const cfn = new CloudFormationClient({ endpoint: sandbox.current.url, region: REGION });
  try {
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
    return stack !== undefined && stack.StackStatus !== 'DELETE_COMPLETE';
  } catch {
    return false;
  } finally {
    cfn.destroy();
  }
}

const exporting = (stackName: string, childLockIntervalMs?: number) =>
  exportStack({
    session: session(),
    stackName,
    io: silentIo,
    command: 'export',
    pollMs: 100,
    ...(childLockIntervalMs !== undefined ? { childLockIntervalMs } : {}),
  });

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CdkdError);
  return { code: (error as CdkdError).code, message: (error as CdkdError).message };
}

describe('cdkd export refusals', () => {
  it('refuses a type CloudFormation cannot import before anything changes, naming the resource', async () => {
    await recordStack('Odd', {
      Data: { type: 'AWS::S3::Bucket', physicalId: 'odd-data' },
      Seeder: { type: 'Custom::Seeder', physicalId: 'seed-1' },
    });
    const refused = await codeOf(exporting('Odd'));
    expect(refused.code).toBe('EXPORT_NOT_IMPORTABLE');
    expect(refused.message).toContain('Seeder (Custom::Seeder): a custom resource cannot be imported');
    expect(refused.message).not.toContain('Data (');
    expect(await cfnHolds('Odd')).toBe(false);
    expect(
      (await backend.store.read({ stackName: 'Odd', region: REGION }))?.document.resources.Seeder,
    ).toBeDefined();
  });

  it("refuses a stack importing a cdkd stack's export before anything changes, naming the exporter", async () => {
    await recordStack('Lender', { Data: { type: 'AWS::S3::Bucket', physicalId: 'lender-data' } });
    const lender = (await backend.store.read({ stackName: 'Lender', region: REGION }))!;
    lender.document.outputs.DataName = { value: 'lender-data', exportName: 'lender-data-name' };
    await backend.store.save({ stackName: 'Lender', region: REGION }, lender.document, lender.etag);
    await recordStack('Borrower', { Logs: { type: 'AWS::Logs::LogGroup', physicalId: 'borrower-logs' } });
    const borrower = (await backend.store.read({ stackName: 'Borrower', region: REGION }))!;
    borrower.document.imports = ['lender-data-name'];
    await backend.store.save({ stackName: 'Borrower', region: REGION }, borrower.document, borrower.etag);

    const refused = await codeOf(exporting('Borrower'));
    expect(refused.code).toBe('EXPORT_IMPORTS_CDKD_EXPORT');
    expect(refused.message).toContain('lender-data-name (exported by Lender)');
    expect(await cfnHolds('Borrower')).toBe(false);
    expect(await backend.store.read({ stackName: 'Borrower', region: REGION })).toBeDefined();
  });

  it('refuses a nested stack named on its own: it goes with its root stack', async () => {
    await recordStack('Root', { Kid: { type: 'AWS::CloudFormation::Stack', physicalId: 'arn-kid' } });
    await recordStack('Root/Kid', { Data: { type: 'AWS::S3::Bucket', physicalId: 'root-kid-data' } });
    for (const name of ['Root/Kid', 'Root~Kid']) {
      const refused = await codeOf(exporting(name));
      expect(refused.code).toBe('EXPORT_NESTED_STACK');
      expect(refused.message).toContain('is a nested stack of Root');
    }
    expect(await cfnHolds('Root-Kid')).toBe(false);
    expect(await backend.store.read({ stackName: 'Root/Kid', region: REGION })).toBeDefined();
  });

  it('answered no, a rollback journal refuses the export (EXPORT_JOURNAL_PRESENT)', async () => {
    await recordStack('WithJournal', { Data: { type: 'AWS::S3::Bucket', physicalId: 'wj-data' } });
    const ref = { stackName: 'WithJournal', region: REGION };
    const journal = emptyJournal(ref);
    const segment = {
      runId: 'r1',
      startedAt: new Date().toISOString(),
      cdkdVersion: '0.1.0',
      flags: {},
      previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
      status: 'failed' as const,
      operations: [],
      importMarks: [],
    };
    await backend.journals.writer(ref)({ ...journal, segments: [segment] }, undefined);
    expect((await backend.journals.read(ref))?.document.segments.length).toBe(1);
    const refused = await codeOf(exporting('WithJournal'));
    expect(refused.code).toBe('EXPORT_JOURNAL_PRESENT');
    expect(await cfnHolds('WithJournal')).toBe(false);
  });
});

describe("cdkd export's locks (spec 003)", () => {
  const parent: StackRef = { stackName: 'Nest', region: REGION };
  const child: StackRef = { stackName: 'Nest/Child', region: REGION };

  beforeAll(async () => {
    await recordStack('Nest', { Data: { type: 'AWS::S3::Bucket', physicalId: 'nest-data' } });
    await recordStack('Nest/Child', { Inner: { type: 'AWS::S3::Bucket', physicalId: 'nest-inner' } });
  });

  it('fails fast on a held stack lock', async () => {
    const held = await backend.locks.acquire(parent, { operation: 'deploy' });
    try {
      const started = Date.now();
      expect((await codeOf(exporting('Nest', 2_000))).code).toBe('LOCK_HELD');
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await held.release();
    }
  });

  it("retries a nested child's held lock 6 times at the interval, then reports it held", async () => {
    const held = await backend.locks.acquire(child, { operation: 'deploy' });
    try {
      const started = Date.now();
      expect((await codeOf(exporting('Nest', 100))).code).toBe('LOCK_HELD');
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    } finally {
      await held.release();
    }
  });

  it("goes on once the child's lock is released within the retries", async () => {
    const held = await backend.locks.acquire(child, { operation: 'deploy' });
    setTimeout(() => void held.release(), 250);
    // Past the locks: Nest names no nested stack, so the state under Nest/Child is refused, not forgotten.
    const refused = await codeOf(exporting('Nest', 100));
    expect(refused.code).toBe('EXPORT_NOT_IMPORTABLE');
    expect(refused.message).toContain('nested stack state Nest/Child: no AWS::CloudFormation::Stack row');
    expect(await cfnHolds('Nest')).toBe(false);
    expect(await backend.store.read(child)).toBeDefined();
    expect((await backend.locks.find(parent)).kind).toBe('absent');
    expect((await backend.locks.find(child)).kind).toBe('absent');
  });
});

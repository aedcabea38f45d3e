import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The built CLI asks before a replacement --force-stateful-recreation lets destroy data:
// without a terminal and without --yes it refuses with nothing touched; --yes proceeds.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);

const table = (name: string, extra: Record<string, unknown> = {}) => ({
  Resources: {
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        ...extra,
        TableName: name,
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
    },
  },
});

function assembly(stackName: string, template: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template }]);
  return dir;
}

function deploy(template: Record<string, unknown>, extra: string[] = []) {
  return runCli(['deploy', '-a', assembly('DataLoss', template), ...extra], { env: env() });
}

async function tablePhysicalId(): Promise<string> {
  const shown = await runCli(['state', 'show', 'DataLoss', '--json'], { env: env() });
  return JSON.parse(shown.stdout).resources.Table.physicalId;
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
  const created = await deploy(table('prompt-a'));
  expect(created.code, created.stderr).toBe(0);
});

describe('the data-loss confirmation (spec 002)', () => {
  it('without the flag, the stateful replacement is refused before the prompt', async () => {
    const result = await deploy(table('prompt-b'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Table (AWS::DynamoDB::Table)');
    expect(result.stderr).toContain('--force-stateful-recreation');
    expect(await tablePhysicalId()).toBe('prompt-a');
  });

  it('with the flag and no terminal, it prints the DATA LOSS rows and refuses without --yes', async () => {
    const result = await deploy(table('prompt-b'), ['--force-stateful-recreation']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('    - **DATA LOSS** Table (AWS::DynamoDB::Table) — changed: TableName');
    expect(result.stderr).toContain(
      '      DATA: all data in Table will be lost (no automatic data migration)',
    );
    expect(result.stderr).toContain('No terminal to ask on.');
    expect(result.stderr).toContain('--yes');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await tablePhysicalId()).toBe('prompt-a');
  });

  it('--dry-run prints the DATA LOSS rows in the plan without asking', async () => {
    const result = await deploy(table('prompt-b'), ['--force-stateful-recreation', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('-/+ **DATA LOSS** Table (AWS::DynamoDB::Table)');
    expect(result.stdout).toContain('    DATA: all data in Table will be lost (no automatic data migration)');
    expect(await tablePhysicalId()).toBe('prompt-a');
  });

  it('--yes skips the question and replaces the table', async () => {
    const result = await deploy(table('prompt-b'), ['--force-stateful-recreation', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(await tablePhysicalId()).toBe('prompt-b');
  });
});

describe('cdkd destroy --remove-protection (spec 002)', () => {
  it('a protected table stops a plain destroy, naming the flag; the flag turns protection off first', async () => {
    const dir = assembly('Protected', table('protected-cli', { DeletionProtectionEnabled: true }));
    expect((await runCli(['deploy', '-a', dir], { env: env() })).code).toBe(0);

    const refused = await runCli(['destroy', '-a', dir, '--yes'], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cdkd destroy --remove-protection');
    expect((await runCli(['state', 'show', 'Protected', '--json'], { env: env() })).code).toBe(0);

    const destroyed = await runCli(['destroy', '-a', dir, '--yes', '--remove-protection'], { env: env() });
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(destroyed.stdout).toContain('Protected: destroyed (1 resources deleted).');
  });
});

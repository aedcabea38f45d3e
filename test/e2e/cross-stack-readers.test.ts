import { DescribeSecurityGroupsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetParametersByPathCommand, SSMClient } from '@aws-sdk/client-ssm';
import { Fn, Stack } from 'aws-cdk-lib';
import { CfnSecurityGroup } from 'aws-cdk-lib/aws-ec2';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { CfnParameter } from 'aws-cdk-lib/aws-ssm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

/**
 * Readers in other stacks of a recreated target, through the built CLI against the sandbox: a
 * security group replaced by a create-only change (its AWS-assigned id moves), exported by one
 * CDK stack and imported by another's in-place reader and create-only reader.
 */
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const clients = () => ({ endpoint: sandbox.current.url, region: 'us-east-1' });
let ec2: EC2Client;
let ssm: SSMClient;
let s3: S3Client;

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
  ec2 = new EC2Client(clients());
  ssm = new SSMClient(clients());
  s3 = new S3Client({ ...clients(), forcePathStyle: true });
});
afterAll(() => {
  ec2.destroy();
  ssm.destroy();
  s3.destroy();
});
afterEach(async () => {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
});

/** Exporter{n}: the security group; Importer{n}: two SSM parameters reading its id through CDK's export. */
function app(n: number, description: string, withTable = false): string {
  return synthesizeApp((cdk) => {
    const exporter = new Stack(cdk, `Exporter${n}`);
    const sg = new CfnSecurityGroup(exporter, 'Sg', { groupDescription: description });
    sg.overrideLogicalId('Sg');
    const importer = new Stack(cdk, `Importer${n}`);
    // Value updates in place; Name is create-only, so a new id is a new parameter.
    new CfnParameter(importer, 'InPlace', {
      type: 'String',
      name: `/x${n}/in-place`,
      value: sg.ref,
    }).overrideLogicalId('InPlace');
    new CfnParameter(importer, 'Named', {
      type: 'String',
      name: Fn.join('', [`/x${n}/named-`, sg.ref]),
      value: 'named',
    }).overrideLogicalId('Named');
    // A stateful create-only reader: a new id is a new table, which loses the old one's data.
    if (withTable) {
      new CfnTable(importer, 'Table', {
        tableName: Fn.join('', [`t${n}-`, sg.ref]),
        keySchema: [{ attributeName: 'pk', keyType: 'HASH' }],
        attributeDefinitions: [{ attributeName: 'pk', attributeType: 'S' }],
        billingMode: 'PAY_PER_REQUEST',
      }).overrideLogicalId('Table');
    }
  });
}

interface StateDoc {
  resources: Record<string, { physicalId: string }>;
  pendingDeletes: Array<{ logicalId: string; record: { physicalId: string }; heldFor?: string[] }>;
}

async function stateOf(stack: string): Promise<StateDoc> {
  const object = await s3.send(
    new GetObjectCommand({ Bucket: 'cdkd-state-000000000000', Key: `cdkd/${stack}/us-east-1/state.json` }),
  );
  return JSON.parse(await object.Body!.transformToString()) as StateDoc;
}

async function groupIds(): Promise<string[]> {
  const groups = (await ec2.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups ?? [];
  return groups.map((group) => group.GroupId!);
}

async function parameters(n: number): Promise<Record<string, string>> {
  const found = await ssm.send(new GetParametersByPathCommand({ Path: `/x${n}`, Recursive: true }));
  return Object.fromEntries((found.Parameters ?? []).map((p) => [p.Name!, p.Value!]));
}

/** The next SSM PutParameter (the importer's first write) fails with an error no retry covers. */
async function failFirstParameterWrite(): Promise<void> {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      service: 'ssm',
      operation: 'PutParameter',
      errorCode: 'ValidationException',
      httpStatus: 400,
      message: 'injected by the test',
      nth: 1,
    }),
  });
}

const deploy = (assembly: string, ...args: string[]) =>
  runCli(['deploy', '-a', assembly, ...args], { env: env() });

describe('a recreated security group whose id another stack imports', () => {
  it('is refused before anything is touched when the importer is not in the run; with it, both readers follow and the old copy goes after them', async () => {
    expect((await deploy(app(1, 'one'), '--all')).code).toBe(0);
    const oldSg = (await stateOf('Exporter1')).resources.Sg!.physicalId;
    expect(await parameters(1)).toEqual({ '/x1/in-place': oldSg, [`/x1/named-${oldSg}`]: 'named' });

    const changed = app(1, 'two');
    const groupsBefore = await groupIds();
    const alone = await deploy(changed, 'Exporter1');
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('EXPORT_IN_USE');
    expect(alone.stderr).toContain('is in use by Importer1 (it reads Sg, which this deploy recreates)');
    expect(alone.stderr).toContain('cdkd deploy Exporter1 Importer1 (or --all)');
    expect((await stateOf('Exporter1')).resources.Sg!.physicalId).toBe(oldSg);
    expect(await groupIds()).toEqual(groupsBefore);

    const diff = await runCli(['diff', '--all', '-a', changed], { env: env() });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain(
      'read in other stacks by Importer1/InPlace (updated), Importer1/Named (replaced if the id changes)',
    );
    expect(diff.stdout).toMatch(
      /InPlace \(AWS::SSM::Parameter\): reads Exporter1\/Sg through export \S+ \(Value via import\), which this run moves first/,
    );
    expect(diff.stdout).toContain("replaced if Exporter1/Sg's id changes: Name is create-only");

    const together = await deploy(changed, '--all');
    expect(together.code, together.stderr).toBe(0);
    const newSg = (await stateOf('Exporter1')).resources.Sg!.physicalId;
    expect(newSg).not.toBe(oldSg);
    expect(await parameters(1)).toEqual({ '/x1/in-place': newSg, [`/x1/named-${newSg}`]: 'named' });
    expect(await groupIds()).toContain(newSg);
    expect(await groupIds()).not.toContain(oldSg);
    expect((await stateOf('Exporter1')).pendingDeletes).toEqual([]);
  });

  it('keeps the old copy, held in state, while a failed importer still reads it; the next run deletes it after the importer follows', async () => {
    expect((await deploy(app(2, 'one'), '--all')).code).toBe(0);
    const oldSg = (await stateOf('Exporter2')).resources.Sg!.physicalId;

    // The importer's first SSM write fails: its deploy fails and rolls back to the old id.
    await failFirstParameterWrite();
    const changed = app(2, 'two');
    const failed = await deploy(changed, '--all');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('injected by the test');
    const exporter = await stateOf('Exporter2');
    const newSg = exporter.resources.Sg!.physicalId;
    expect(newSg).not.toBe(oldSg);
    expect(exporter.pendingDeletes).toEqual([
      expect.objectContaining({
        logicalId: 'Sg',
        record: expect.objectContaining({ physicalId: oldSg }),
        heldFor: ['Importer2'],
      }),
    ]);
    expect(await groupIds()).toEqual(expect.arrayContaining([oldSg, newSg]));
    expect(await parameters(2)).toEqual({ '/x2/in-place': oldSg, [`/x2/named-${oldSg}`]: 'named' });

    // The exporter alone leaves the held copy where it is, and says what frees it.
    const alone = await deploy(changed, 'Exporter2');
    expect(alone.code, alone.stderr).not.toBe(1);
    expect(alone.stderr).toContain(`cdkd deploy Exporter2 Importer2 deletes it once they have deployed`);
    expect(await groupIds()).toContain(oldSg);

    await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
    const again = await deploy(changed, '--all');
    expect(again.code, again.stderr).toBe(0);
    expect(await parameters(2)).toEqual({ '/x2/in-place': newSg, [`/x2/named-${newSg}`]: 'named' });
    expect(await groupIds()).not.toContain(oldSg);
    expect((await stateOf('Exporter2')).pendingDeletes).toEqual([]);
  });

  it('--recreate-via-cc-api lists the readers in the other stack in its prompt, then creates the new group first so they follow before the old one goes', async () => {
    const assembly = app(3, 'one');
    expect((await deploy(assembly, '--all')).code).toBe(0);
    const oldSg = (await stateOf('Exporter3')).resources.Sg!.physicalId;

    const unasked = await deploy(assembly, '--all', '--recreate-via-cc-api', 'Sg');
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toContain('Exporter3: this deploy destroys and recreates these resources:');
    expect(unasked.stderr).toContain('  Replaced if the id changes:');
    expect(unasked.stderr).toMatch(
      /- Importer3\/Named \(AWS::SSM::Parameter\) — replaced if the id of Sg changes \(reads export \S+\)/,
    );
    expect((await stateOf('Exporter3')).resources.Sg!.physicalId).toBe(oldSg);

    // The importer fails: created first, the old group is still there, held for it.
    await failFirstParameterWrite();
    const asked = await deploy(assembly, '--all', '--recreate-via-cc-api', 'Sg', '--yes');
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('injected by the test');
    const sg = (await stateOf('Exporter3')).resources.Sg as unknown as {
      physicalId: string;
      provisionedBy: string;
    };
    expect(sg.provisionedBy).toBe('cc-api');
    expect(sg.physicalId).not.toBe(oldSg);
    expect(await groupIds()).toEqual(expect.arrayContaining([oldSg, sg.physicalId]));
    expect((await stateOf('Exporter3')).pendingDeletes).toEqual([
      expect.objectContaining({ logicalId: 'Sg', heldFor: ['Importer3'] }),
    ]);

    await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
    const again = await deploy(assembly, '--all');
    expect(again.code, again.stderr).toBe(0);
    expect(await parameters(3)).toEqual({
      '/x3/in-place': sg.physicalId,
      [`/x3/named-${sg.physicalId}`]: 'named',
    });
    expect(await groupIds()).not.toContain(oldSg);
    expect((await stateOf('Exporter3')).pendingDeletes).toEqual([]);
  });

  it('a stateful create-only reader in the importing stack is refused before either stack is touched', async () => {
    expect((await deploy(app(4, 'one', true), '--all')).code).toBe(0);
    const before = await stateOf('Exporter4');
    const groups = await groupIds();

    const refused = await deploy(app(4, 'two', true), '--all');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('STATEFUL_REPLACE_BLOCKED');
    expect(refused.stderr).toContain('Table (AWS::DynamoDB::Table), a reader of Exporter4/Sg');
    expect(await stateOf('Exporter4')).toEqual(before);
    expect(await groupIds()).toEqual(groups);
  });
});

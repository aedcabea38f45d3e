import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The built CLI against the sandbox: `cdkd diff` plans the --recreate-via-* flags as a deploy
// would (spec 002), and `cdkd diff --json` carries the Outputs delta the text diff shows.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

function assemblyFor(stackName: string, template: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template }]);
  return dir;
}

const template = (value: string, outputs: Record<string, unknown>) => ({
  Resources: {
    Param: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/diff/p', Type: 'String', Value: value } },
    Store: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'diff-recreate-store' } },
  },
  Outputs: outputs,
});
const DEPLOYED = template('v1', {
  Name: { Value: { Ref: 'Param' } },
  Fixed: { Value: 'one' },
  Gone: { Value: 'going' },
});

async function recorded(): Promise<unknown> {
  return JSON.parse((await cli(['state', 'show', 'DiffStack', '--json'])).stdout);
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
  const deployed = await cli(['deploy', '-a', assemblyFor('DiffStack', DEPLOYED)]);
  expect(deployed.code, deployed.stderr).toBe(0);
});

describe('cdkd diff --recreate-via-cc-api / --recreate-via-sdk-provider', () => {
  it('shows the recreate row with its move, asks nothing and changes nothing; --fail counts it', async () => {
    const before = await recorded();
    const dir = assemblyFor('DiffStack', DEPLOYED);
    const result = await cli(['diff', '-a', dir, '--recreate-via-cc-api', 'Param', '--fail']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(
      '-/+ Param (AWS::SSM::Parameter) [SDK → CC]: re-created via Cloud Control (--recreate-via-cc-api)',
    );
    expect(result.stdout).toContain('0 to create, 0 to update, 1 to replace, 0 to delete, 1 unchanged');
    expect(result.stderr).not.toContain('No terminal to ask on');
    expect(await recorded()).toEqual(before);

    const plain = await cli(['diff', '-a', dir, '--fail']);
    expect(plain.code, plain.stderr).toBe(0);
  });

  it('the JSON plan marks the layer the resource is re-created on', async () => {
    const dir = assemblyFor('DiffStack', DEPLOYED);
    const result = await cli(['diff', '-a', dir, '--recreate-via-sdk-provider', 'Param', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout).DiffStack;
    expect(plan.operations.find((op: { logicalId: string }) => op.logicalId === 'Param')).toMatchObject({
      kind: 'replace',
      recreateVia: 'sdk',
      recreateFrom: 'sdk',
    });
  });

  it('an unknown id, or one id under both flags, is refused as deploy refuses it', async () => {
    const dir = assemblyFor('DiffStack', DEPLOYED);
    const unknown = await cli(['diff', '-a', dir, '--recreate-via-cc-api', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('RECREATE_VIA_UNKNOWN_ID');
    expect(unknown.stderr).toContain('--recreate-via-cc-api names Nope, which no stack of this run declares');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
    const both = await cli([
      'diff',
      '-a',
      dir,
      '--recreate-via-cc-api',
      'Param',
      '--recreate-via-sdk-provider',
      'Param',
    ]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('RECREATE_FLAGS_CONFLICT');
  });

  it('a bucket holding data is refused without --force-stateful-recreation, and marked DATA LOSS with it', async () => {
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: 'diff-recreate-store', Key: 'k', Body: 'data' }));
    const dir = assemblyFor('DiffStack', DEPLOYED);
    const refused = await cli(['diff', '-a', dir, '--recreate-via-cc-api', 'Store']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--force-stateful-recreation');
    const forced = await cli([
      'diff',
      '-a',
      dir,
      '--recreate-via-cc-api',
      'Store',
      '--force-stateful-recreation',
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('-/+ **DATA LOSS** Store (AWS::S3::Bucket) [SDK → CC]: re-created via');
  });
  it('a forced layer shows what it leaves unsent, never the route it skips', async () => {
    const accelerated = template('v1', DEPLOYED.Outputs);
    (accelerated.Resources.Store.Properties as Record<string, unknown>).AccelerateConfiguration = {
      AccelerationStatus: 'Enabled',
    };
    const dir = assemblyFor('DiffStack', accelerated);
    const force = ['--force-stateful-recreation'];
    const routed = await cli(['diff', '-a', dir, ...force]);
    expect(routed.stdout).toContain('Store (AWS::S3::Bucket) [via CC API: AccelerateConfiguration]');
    const viaSdk = await cli(['diff', '-a', dir, '--recreate-via-sdk-provider', 'Store', ...force]);
    expect(viaSdk.code, viaSdk.stderr).toBe(0);
    expect(viaSdk.stdout).toContain(
      'Store (AWS::S3::Bucket) [SDK → SDK] [SDK provider drops: AccelerateConfiguration]: changed: AccelerateConfiguration; re-created via the SDK provider',
    );
    const viaCc = await cli(['diff', '-a', dir, '--recreate-via-cc-api', 'Store', ...force]);
    expect(viaCc.stdout).toContain('Store (AWS::S3::Bucket) [SDK → CC]: changed: AccelerateConfiguration;');
  });
});

describe('cdkd diff --json', () => {
  it('carries the Outputs delta the text diff shows: added, changed and removed', async () => {
    const dir = assemblyFor(
      'DiffStack',
      template('v1', { Name: { Value: { Ref: 'Param' } }, Fixed: { Value: 'two' }, New: { Value: 'n' } }),
    );
    const text = await cli(['diff', '-a', dir]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Outputs:\n  ~ Fixed: "one" → "two"\n  + New: "n"\n  - Gone: "going"\n');

    const json = await cli(['diff', '-a', dir, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout).DiffStack;
    expect(plan.summary).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
    expect(plan.outputs).toEqual([
      { name: 'Fixed', before: 'one', after: 'two' },
      { name: 'New', after: 'n' },
      { name: 'Gone', before: 'going' },
    ]);
  });

  it("prints the plans of the stacks that planned when another stack's plan is refused, then fails", async () => {
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: 'diff-recreate-store', Key: 'k', Body: 'data' }));
    const dir = tempDir();
    writeAssembly(dir, [
      { id: 'DiffStack', template: DEPLOYED },
      {
        id: 'DiffNew',
        template: {
          Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'n' } } },
        },
      },
    ]);
    const result = await cli(['diff', '-a', dir, '--all', '--json', '--recreate-via-cc-api', 'Store']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--force-stateful-recreation');
    const plans = JSON.parse(result.stdout);
    expect(Object.keys(plans)).toEqual(['DiffNew']);
    expect(plans.DiffNew.summary).toMatchObject({ create: 1 });
  });

  it('an unchanged stack has an empty outputs list', async () => {
    const json = await cli(['diff', '-a', assemblyFor('DiffStack', DEPLOYED), '--json', '--fail']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).DiffStack.outputs).toEqual([]);
  });
});

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCustomResourceType } from '../../src/providers/handled-types.js';
import { REPO_ROOT, runCli, synthesizeAndBootstrap } from '../helpers/cli.js';
import { stackResources, unmatched } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The README's main job, end to end: the example CDK app deployed to the sandbox
// through the built CLI, redeployed as a no-op, diffed, and destroyed.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const appDir = join(REPO_ROOT, 'examples/app');
let work: string;
let assembly: string;

async function admin(path: string, method = 'GET') {
  const response = await fetch(`${sandbox.current.url}/_sandbox/${path}`, { method });
  return response.json();
}

async function cloudResources(): Promise<string[]> {
  return (await stackResources(sandbox.current.url)).map((resource) => `${resource.type} ${resource.id}`);
}

beforeAll(async () => {
  ({ work, assembly } = await synthesizeAndBootstrap(appDir, env(), 'cdkd-e2e-'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the example app on the sandbox', () => {
  it('deploys both stacks, writes the outputs file, and resolves the cross-stack reference', async () => {
    const outputsFile = join(work, 'outputs.json');
    const result = await runCli(['deploy', '--all', '-a', assembly, '--outputs-file', outputsFile], {
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const outputs = JSON.parse(readFileSync(outputsFile, 'utf8'));
    expect(Object.keys(outputs).sort()).toEqual(['CdkdDemoConsumer', 'CdkdDemoStorage']);
    expect(outputs.CdkdDemoConsumer.ConsumedBucketName).toBe(outputs.CdkdDemoStorage.BucketName);
    // The custom resource's handler ran on the sandbox, and its Data is an output.
    expect(outputs.CdkdDemoConsumer.Greeting).toBe(
      `hello from a custom resource, reading ${outputs.CdkdDemoStorage.BucketName}`,
    );
    expect(result.stdout).toContain(`CdkdDemoStorage.BucketName = ${outputs.CdkdDemoStorage.BucketName}`);

    const records = [];
    for (const stack of [
      'CdkdDemoStorage',
      'CdkdDemoStorage/NotificationsNestedStackNotificationsNestedStackResourceA63DC337',
      'CdkdDemoConsumer',
    ]) {
      const state = await runCli(['state', 'show', stack, '--json'], { env: env() });
      records.push(
        ...(Object.values(JSON.parse(state.stdout).resources) as Array<{ type: string; physicalId: string }>),
      );
    }
    // Neither a nested stack nor a custom resource is a resource a service lists.
    const resources = records.filter(
      (record) => record.type !== 'AWS::CloudFormation::Stack' && !isCustomResourceType(record.type),
    );
    expect(unmatched(resources, await stackResources(sandbox.current.url))).toEqual({
      missing: [],
      extra: [],
    });
  });

  it('a redeploy makes no mutating call to any resource API and leaves state untouched', async () => {
    await admin('calls', 'DELETE');
    const result = await runCli(['deploy', '--all', '-a', assembly], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('CdkdDemoStorage (no changes)');
    const { calls } = (await admin('calls')) as {
      calls: Record<string, { count: number; mutating: boolean }>;
    };
    const mutating = Object.entries(calls).filter(([name, call]) => call.mutating && !name.startsWith('s3:'));
    expect(mutating).toEqual([]);
    // Both stacks, the one with a nested stack too, answer from reads alone: no lock, no write.
    expect(calls['s3:PutObject']).toBeUndefined();
    expect(calls['s3:DeleteObject']).toBeUndefined();
  });

  it('diff --fail finds nothing to change', async () => {
    const result = await runCli(['diff', '--all', '--fail', '-a', assembly], { env: env() });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('0 to create, 0 to update, 0 to replace, 0 to delete, 8 unchanged');
    expect(result.stdout).toContain(
      'Stack CdkdDemoConsumer\n0 to create, 0 to update, 0 to replace, 0 to delete, 7 unchanged',
    );
  });

  it('drift --fail finds nothing drifted in any stack, the nested one too', async () => {
    for (const stack of [
      'CdkdDemoStorage',
      'CdkdDemoStorage/NotificationsNestedStackNotificationsNestedStackResourceA63DC337',
      'CdkdDemoConsumer',
    ]) {
      const result = await runCli(['drift', stack, '--fail'], { env: env() });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain('no drift');
    }
  });

  it('refuses to destroy the exporting stack alone while the consumer imports from it', async () => {
    const before = await cloudResources();
    const result = await runCli(['destroy', 'CdkdDemoStorage', '-a', assembly, '--yes'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [EXPORT_IN_USE]');
    expect(result.stderr).toContain('imported by CdkdDemoConsumer');
    expect(await cloudResources()).toEqual(before);
  });

  it('destroy --all leaves nothing behind, and state list is empty again', async () => {
    const result = await runCli(['destroy', '--all', '-a', assembly, '--yes'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(await cloudResources()).toEqual([]);
    const list = await runCli(['state', 'list'], { env: env() });
    expect(list.stdout).toContain('No stacks recorded');
  });
});

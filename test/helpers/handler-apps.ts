import type { App } from 'aws-cdk-lib';
import { expect } from 'vitest';
import { accountFor } from './accounting.js';
import { synthesizeApp } from './cdk-app.js';
import { runCli } from './cli.js';
import { stackResources } from './inventory.js';
import { sandboxEnv } from './sandbox.js';

/** An SDK client of `Client` pointed at the sandbox, in `region`. */
export function sandboxClient<C>(
  sandboxUrl: string,
  Client: new (config: object) => C,
  region = 'us-east-1',
): C {
  return new Client({ endpoint: sandboxUrl, region, forcePathStyle: true });
}

/** KMS keys scheduled for deletion: what a deleted key is on AWS until its window ends. */
async function keysPendingDeletion(sandboxUrl: string): Promise<Set<string>> {
  const inventory = (await (await fetch(`${sandboxUrl}/_sandbox/inventory`)).json()) as {
    kms?: { 'AWS::KMS::Key'?: Array<{ id: string; state: string }> };
  };
  return new Set(
    (inventory.kms?.['AWS::KMS::Key'] ?? [])
      .filter((key) => key.state === 'PendingDeletion')
      .map((key) => key.id),
  );
}

/** What the sandbox holds besides Lambda's own log groups and keys scheduled for deletion. */
export async function leftBehind(sandboxUrl: string): Promise<string[]> {
  const pending = await keysPendingDeletion(sandboxUrl);
  return (await stackResources(sandboxUrl))
    .filter((resource) => !(resource.type === 'AWS::KMS::Key' && pending.has(resource.id)))
    .map((resource) => `${resource.type} ${resource.id}`);
}

/**
 * Deploys the app `build(app, 1)` makes through the built CLI, then `build(app, 2)` (an
 * update), then destroys it, and checks that every step succeeded and nothing is left: no
 * state record, no resource the sandbox holds. `afterDeploy` runs after each deploy with its
 * outputs (`Stack.Output` → value).
 */
export async function deployUpdateDestroy(
  sandboxUrl: string,
  build: (app: App, version: 1 | 2) => void,
  afterDeploy: (outputs: Record<string, string>, version: 1 | 2) => Promise<void> = async () => {},
): Promise<void> {
  const env = sandboxEnv(sandboxUrl);
  const versions = [1, 2] as const;
  let assembly = '';
  for (const version of versions) {
    assembly = synthesizeApp((app) => {
      // AwsCustomResource would otherwise npm-install the latest SDK on every cold start.
      app.node.setContext('@aws-cdk/customresources:installLatestAwsSdkDefault', false);
      build(app, version);
    });
    const deployed = await runCli(['deploy', '--all', '-a', assembly], { env });
    expect(deployed.code, `deploy ${version}: ${deployed.stderr}`).toBe(0);
    const outputs = Object.fromEntries(
      deployed.stdout
        .split('\n')
        .map((line) => /^(\S+\.\S+) = (.*)$/.exec(line.trim()))
        .filter((match): match is RegExpExecArray => match !== null)
        .map((match) => [match[1]!, match[2]!]),
    );
    await afterDeploy(outputs, version);
  }
  const destroyed = await runCli(['destroy', '--all', '-a', assembly, '--yes'], { env });
  expect(destroyed.code, destroyed.stderr).toBe(0);
  expect(await leftBehind(sandboxUrl)).toEqual([]);
  const accounting = await accountFor(sandboxUrl);
  const pending = await keysPendingDeletion(sandboxUrl);
  expect({
    untracked: accounting.untracked.filter(
      (entry) => ![...pending].some((id) => entry === `AWS::KMS::Key ${id}`),
    ),
    deadRecords: accounting.deadRecords,
  }).toEqual({ untracked: [], deadRecords: [] });
}

import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { useModuleLog } from '../helpers/module-log.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A redeploy with nothing to change answers from reads alone: no lock, no write, and as
// many calls for a large stack as for a small one.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const modulesLoadedBy = useModuleLog();

interface CallsSnapshot {
  calls: Record<string, { count: number; mutating: boolean }>;
  total: number;
  mutating: number;
}

async function admin<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/${path}`, { method });
  return (await response.json()) as T;
}

function parameters(count: number): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    resources[`P${i}`] = { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: `v${i}` } };
  }
  return { Resources: resources, Outputs: { First: { Value: { Ref: 'P0' } } } };
}

function assemblyFor(stackName: string, template: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template }]);
  return dir;
}

/** Deploys, then redeploys unchanged under its own state prefix; the redeploy's calls. */
async function redeployCalls(stackName: string, count: number): Promise<CallsSnapshot> {
  const app = assemblyFor(stackName, parameters(count));
  const args = ['deploy', '-a', app, '--state-prefix', stackName];
  const first = await runCli(args, { env: env() });
  expect(first.code, first.stderr).toBe(0);
  await admin('DELETE', 'calls');
  const again = await runCli(args, { env: env() });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toContain('no changes');
  expect(again.stdout).toContain('First');
  return admin<CallsSnapshot>('GET', 'calls');
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

describe('a no-op redeploy', () => {
  it('makes no mutating call, and the same calls for 4 resources as for 40', async () => {
    const small = await redeployCalls('NoOpSmall', 4);
    const large = await redeployCalls('NoOpLarge', 40);
    expect(small.mutating).toBe(0);
    expect(large.mutating).toBe(0);
    expect(small.total).toBeGreaterThan(0);
    expect(large.calls).toEqual(small.calls);
  });

  it('loads no provider, context look-up or AWS SDK client but S3 and STS; a change loads only its own', async () => {
    const stackName = 'NoOpModules';
    const template = {
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } },
        Param: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'v' } },
      },
    };
    const app = assemblyFor(stackName, template);
    const args = ['deploy', '-a', app, '--state-prefix', stackName];
    expect((await runCli(args, { env: env() })).code).toBe(0);
    const clients = (modules: string[]) =>
      [
        ...new Set(
          modules.flatMap((url) => /\/node_modules\/@aws-sdk\/(client-[^/]+)\//.exec(url)?.[1] ?? []),
        ),
      ].sort();
    const providers = (modules: string[]) =>
      [
        ...new Set(modules.flatMap((url) => /\/dist\/providers\/([^/]+)\/[^/]+\.js$/.exec(url)?.[1] ?? [])),
      ].sort();

    const noop = await modulesLoadedBy(args, env());
    expect(noop.code, noop.stderr).toBe(0);
    expect(noop.stderr).toContain('no changes');
    expect(clients(noop.modules)).toEqual(['client-s3', 'client-sts']);
    // Cloud Control's provider module loads (it is the registry's fallback), not its SDK client.
    expect(providers(noop.modules)).toEqual(['cloudcontrol']);
    expect(noop.modules.some((url) => url.includes('/dist/context-providers/index.js'))).toBe(false);
    // The bundled SDK keeps only the commands cdkd names: S3's GetObject loads, not all 110 of S3's commands.
    const s3Commands = noop.modules.flatMap(
      (url) => /\/@aws-sdk\/client-s3\/dist-es\/commands\/(\w+)Command\.js$/.exec(url)?.[1] ?? [],
    );
    expect(s3Commands).toContain('GetObject');
    expect(s3Commands).not.toContain('ListBuckets');
    expect(s3Commands.length).toBeLessThan(30);

    const changed = assemblyFor(stackName, {
      Resources: {
        ...template.Resources,
        Queue: { ...template.Resources.Queue, Properties: { VisibilityTimeout: 40 } },
      },
    });
    const update = await modulesLoadedBy(['deploy', '-a', changed, '--state-prefix', stackName], env());
    expect(update.code, update.stderr).toBe(0);
    // CloudFormation answers DescribeType: the changed property's replacement verdict is the registry's.
    expect(clients(update.modules)).toEqual([
      'client-cloudformation',
      'client-s3',
      'client-sqs',
      'client-sts',
    ]);
    expect(providers(update.modules)).toContain('sqs');
    expect(providers(update.modules)).not.toContain('ssm');
  });

  it('still waits for a lock another process holds, instead of answering past it', async () => {
    const stackName = 'NoOpLocked';
    const app = assemblyFor(stackName, parameters(2));
    expect((await runCli(['deploy', '-a', app], { env: env() })).code).toBe(0);
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    await s3.send(
      new PutObjectCommand({
        Bucket: 'cdkd-state-000000000000',
        Key: `cdkd/${stackName}/us-east-1/lock.json`,
        Body: JSON.stringify({
          version: 1,
          owner: 'other@host:1',
          timestamp: new Date().toISOString(),
          expiresAt: '2999-01-01T00:00:00Z',
          operation: 'deploy',
        }),
      }),
    );
    const refused = await runCli(['deploy', '-a', app], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('LOCK_HELD');
  });

  it('with a rollback journal left to settle takes the lock and deploys as usual', async () => {
    const stackName = 'NoOpJournal';
    const app = assemblyFor(stackName, parameters(2));
    expect((await runCli(['deploy', '-a', app], { env: env() })).code).toBe(0);
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    await s3.send(
      new PutObjectCommand({
        Bucket: 'cdkd-state-000000000000',
        Key: `cdkd/${stackName}/us-east-1/rollback-journal.json`,
        Body: JSON.stringify({ version: 1, stackName, region: 'us-east-1', segments: [] }),
      }),
    );
    await admin('DELETE', 'calls');
    const again = await runCli(['deploy', '-a', app], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    const calls = await admin<CallsSnapshot>('GET', 'calls');
    // The lock was taken and released, and the settled journal removed.
    expect(calls.calls['s3:PutObject']?.count).toBeGreaterThan(0);
    expect(calls.calls['s3:DeleteObject']?.count).toBeGreaterThanOrEqual(2);
  });
});

import { GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The built CLI against the sandbox: spec 002's auto-route of an SDK-provider bucket gaining
// a property its provider does not send, --prefer-sdk-route and its create-only refusal,
// --pin-cc-api's run-level typo check, and the routing annotations cdkd diff prints.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const ACCELERATED = { AccelerateConfiguration: { AccelerationStatus: 'Enabled' } };

const bucket = (name: string, properties: Record<string, unknown> = {}) => ({
  Type: 'AWS::S3::Bucket',
  Properties: { BucketName: name, ...properties },
});

/** `Routed` holding `Store`, and `Other` holding a queue, as one app. */
function app(store: Record<string, unknown>, lock?: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [
    { id: 'Routed', template: { Resources: { Store: store, ...(lock ? { Lock: lock } : {}) } } },
    { id: 'Other', template: { Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: {} } } } },
  ]);
  return dir;
}

const cli = (args: string[]) => runCli(args, { env: env() });

async function recorded(logicalId: string): Promise<Record<string, unknown>> {
  const shown = await cli(['state', 'show', 'Routed', '--json']);
  return JSON.parse(shown.stdout).resources[logicalId];
}

async function liveBucket(name: string): Promise<Record<string, unknown>> {
  const cc = await new AwsClients().cloudControl('us-east-1');
  const { ResourceDescription } = await cc.send(
    new GetResourceCommand({ TypeName: 'AWS::S3::Bucket', Identifier: name }),
  );
  return JSON.parse(ResourceDescription!.Properties!) as Record<string, unknown>;
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
  const deployed = await cli(['deploy', '--all', '-a', app(bucket('e2e-routed'))]);
  expect(deployed.code, deployed.stderr).toBe(0);
});

describe('--pin-cc-api', () => {
  it('an id no stack of the run declares is refused before any stack deploys', async () => {
    const before = await recorded('Store');
    const result = await cli([
      'deploy',
      '--all',
      '-a',
      app(bucket('e2e-routed', ACCELERATED)),
      '--pin-cc-api',
      'Stor',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PIN_CC_API_UNKNOWN_ID');
    expect(result.stderr).toContain('Stor');
    expect(await recorded('Store')).toEqual(before);
  });

  it('an id one stack of an --all run declares is accepted, though the other stack lacks it', async () => {
    const result = await cli(['diff', '--all', '-a', app(bucket('e2e-routed')), '--pin-cc-api', 'Store']);
    expect(result.code, result.stderr).toBe(0);
  });
});

describe('a property the SDK provider does not send', () => {
  it('cdkd diff shows the route, with and without --prefer-sdk-route', async () => {
    const dir = app(bucket('e2e-routed', ACCELERATED), bucket('e2e-new', ACCELERATED));
    const plain = await cli(['diff', 'Routed', '-a', dir]);
    expect(plain.stdout).toContain('Store (AWS::S3::Bucket) [via CC API: AccelerateConfiguration]');
    expect(plain.stdout).toContain('Lock (AWS::S3::Bucket) [via CC API: AccelerateConfiguration]');
    // Under the flag nothing the SDK provider sends changes for Store: a no-op; Lock is made without it.
    const preferred = await cli(['diff', 'Routed', '-a', dir, '--prefer-sdk-route']);
    expect(preferred.stdout).not.toContain('Store (AWS::S3::Bucket)');
    expect(preferred.stdout).toContain(
      'Lock (AWS::S3::Bucket) [SDK provider drops: AccelerateConfiguration]',
    );
  });

  it('moves the bucket to Cloud Control as an update in place, the property read back', async () => {
    const before = await recorded('Store');
    const result = await cli(['deploy', 'Routed', '-a', app(bucket('e2e-routed', ACCELERATED))]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Store .*updated.*moved to Cloud Control/);
    expect(result.stderr).not.toMatch(/Store .*replaced/);
    const after = await recorded('Store');
    expect(after).toMatchObject({ provisionedBy: 'cc-api', physicalId: before.physicalId });
    expect(await liveBucket('e2e-routed')).toMatchObject(ACCELERATED);
    const sticky = await cli([
      'diff',
      'Routed',
      '-a',
      app(bucket('e2e-routed', { ...ACCELERATED, Tags: [{ Key: 'k', Value: 'v' }] })),
    ]);
    expect(sticky.stdout).toContain('Store (AWS::S3::Bucket) [via CC API: sticky]');
  });

  it('a create-only drop kept by --prefer-sdk-route TYPE:PROPERTY is refused without the flag', async () => {
    const store = bucket('e2e-routed', ACCELERATED);
    const lock = bucket('e2e-locked', { ObjectLockEnabled: true });
    const flag = ['--prefer-sdk-route', 'AWS::S3::Bucket:ObjectLockEnabled'];
    const made = await cli(['deploy', 'Routed', '-a', app(store, lock), ...flag]);
    expect(made.code, made.stderr).toBe(0);
    expect(await recorded('Lock')).toMatchObject({
      provisionedBy: 'sdk',
      properties: { ObjectLockEnabled: true },
    });
    const refused = await cli(['deploy', 'Routed', '-a', app(store, lock)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('CREATE_ONLY_DROP_NEEDS_REPLACEMENT');
    expect(refused.stderr).toContain('--prefer-sdk-route AWS::S3::Bucket:ObjectLockEnabled');
    const again = await cli(['deploy', 'Routed', '-a', app(store, lock), ...flag]);
    expect(again.code, again.stderr).toBe(0);
  });

  it('a --prefer-sdk-route value that names no type and property is refused', async () => {
    const result = await cli([
      'diff',
      '--all',
      '-a',
      app(bucket('e2e-routed')),
      '--prefer-sdk-route',
      'Routed',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PREFER_SDK_ROUTE_INVALID');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { EventLog } from '../../src/state/event-log.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
  const backend = await openStateBackend(new AwsClients(), 'cdkd-state-000000000000', 'cdkd');
  const log = new EventLog(backend.objects, 'cdkd', { stackName: 'Evented', region: 'us-east-1' }, 'run-1');
  log.record({
    status: 'CREATE_COMPLETE',
    logicalId: 'Queue',
    resourceType: 'AWS::SQS::Queue',
    physicalId: 'https://sqs/queue',
  });
  log.record({
    status: 'ROLLBACK_RESOURCE_SUCCEEDED',
    logicalId: 'Bucket',
    resourceType: 'AWS::S3::Bucket',
    physicalId: 'bucket-old',
    survivorId: 'bucket-new',
    managedBy: 'sdk',
    reason: 'kept by UpdateReplacePolicy: Retain',
  });
  await log.flush();
  const elsewhere = new EventLog(
    backend.objects,
    'cdkd',
    { stackName: 'Evented', region: 'eu-west-1' },
    'run-eu',
  );
  elsewhere.record({ status: 'DELETE_SKIPPED', logicalId: 'Table', managedBy: 'cc-api' });
  await elsewhere.flush();
});

describe('cdkd events', () => {
  it('prints the recorded events, one line each', async () => {
    const result = await runCli(['events', 'Evented'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}CREATE_COMPLETE {2}Queue {2}AWS::SQS::Queue {2}https:\/\/sqs\/queue$/,
    );
    expect(lines[1]).toContain(
      'ROLLBACK_RESOURCE_SUCCEEDED  Bucket  AWS::S3::Bucket  bucket-old  survivor: bucket-new (managed by sdk)  kept by UpdateReplacePolicy: Retain',
    );
  });

  it('--json prints the events array', async () => {
    const result = await runCli(['events', 'Evented', '--json'], { env: env() });
    expect(result.code).toBe(0);
    const events = JSON.parse(result.stdout);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      runId: 'run-1',
      status: 'ROLLBACK_RESOURCE_SUCCEEDED',
      survivorId: 'bucket-new',
      managedBy: 'sdk',
    });
  });

  it('--region reads that region’s events', async () => {
    const result = await runCli(['events', 'Evented', '--region', 'eu-west-1'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ {2}DELETE_SKIPPED {2}Table {2}- {2}- {2}\(managed by cc-api\)\n$/);
  });

  it('says when no events were recorded, naming the stack and region', async () => {
    const result = await runCli(['events', 'Quiet'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No events recorded for stack Quiet in us-east-1.\n');
    const json = await runCli(['events', 'Quiet', '--json'], { env: env() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });
});

import {
  CloudFormationClient,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Duration, RemovalPolicy, Stack, type App } from 'aws-cdk-lib';
import { ServicePrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCdk } from '../helpers/cdk-cli.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A stack the AWS CDK CLI deployed moves to cdkd and back: migrated (the importing stack
// first), updated by cdkd deploy, exported (the exporting stack first), updated by cdk deploy,
// destroyed by cdk destroy. The sandbox holds the same resources under the same physical ids
// throughout, and nothing of the app after the destroy.
const sandbox = useSandbox();
const EXPORTER = 'RoundTripExporter';
const IMPORTER = 'RoundTripImporter';
let cfn: CloudFormationClient;
let sqs: SQSClient;
/** What the sandbox held before the app: the bootstrap stacks' resources. */
let baseline: Set<string>;

const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });
const cdk = (args: string[]) => runCdk(sandbox.current.url, args);

/** The app at a revision: the queue's visibility timeout is what each update changes. */
function app(visibilitySeconds: number): string {
  return synthesizeApp((root: App) => {
    const exporter = new Stack(root, EXPORTER, { analyticsReporting: false });
    const queue = new Queue(exporter, 'Jobs', { visibilityTimeout: Duration.seconds(visibilitySeconds) });
    new Topic(exporter, 'Alerts');
    new Bucket(exporter, 'Data', { removalPolicy: RemovalPolicy.DESTROY });
    const role = new Role(exporter, 'Worker', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    new Function(exporter, 'Handler', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = async () => "ok";'),
      role,
    });
    const importer = new Stack(root, IMPORTER, { analyticsReporting: false });
    // A cross-stack reference: the exporter exports the queue's ARN, the importer imports it.
    new StringParameter(importer, 'JobsArn', { stringValue: queue.queueArn });
  });
}

/** The app's resources the sandbox holds, as `type id` (the CloudFormation stacks themselves aside). */
async function held(): Promise<string[]> {
  return (await stackResources(sandbox.current.url))
    .filter((r) => r.type !== 'AWS::CloudFormation::Stack')
    .map((r) => `${r.type} ${r.id}`)
    .filter((key) => !baseline.has(key));
}

async function cfnStatus(stackName: string): Promise<string | undefined> {
  const stacks = (await cfn.send(new DescribeStacksCommand({}))).Stacks ?? [];
  return stacks.find((stack) => stack.StackName === stackName)?.StackStatus;
}

async function cfnPhysicalIds(stackName: string): Promise<Record<string, string>> {
  const listed = await cfn.send(new DescribeStackResourcesCommand({ StackName: stackName }));
  return Object.fromEntries(
    (listed.StackResources ?? []).map((r) => [r.LogicalResourceId!, r.PhysicalResourceId!]),
  );
}

async function cdkdPhysicalIds(stackName: string): Promise<Record<string, string> | undefined> {
  const shown = await cli(['state', 'show', stackName, '--json']);
  if (shown.code !== 0) return undefined;
  const resources = JSON.parse(shown.stdout).resources as Record<string, { physicalId: string }>;
  return Object.fromEntries(Object.entries(resources).map(([id, r]) => [id, r.physicalId]));
}

async function visibility(queueUrl: string): Promise<string | undefined> {
  const read = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }),
  );
  return read.Attributes?.VisibilityTimeout;
}

beforeAll(async () => {
  cfn = new CloudFormationClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });
  sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });
  const bootstrapped = await cdk(['bootstrap', 'aws://000000000000/us-east-1']);
  expect(bootstrapped.code, bootstrapped.output).toBe(0);
  expect((await cli(['bootstrap'])).code).toBe(0);
  baseline = new Set((await stackResources(sandbox.current.url)).map((r) => `${r.type} ${r.id}`));
});
afterAll(() => {
  cfn.destroy();
  sqs.destroy();
});

describe('a CDK CLI stack moved to cdkd and back', () => {
  let resources: string[];
  let ids: Record<string, string>;
  let queueUrl: string;

  it('cdk deploy --all makes both stacks; the importer reads the exporter through an export', async () => {
    const deployed = await cdk(['deploy', '--all', '--require-approval', 'never', '--app', app(30)]);
    expect(deployed.code, deployed.output).toBe(0);
    expect(await cfnStatus(EXPORTER)).toBe('CREATE_COMPLETE');
    expect(await cfnStatus(IMPORTER)).toBe('CREATE_COMPLETE');
    resources = (await held()).sort();
    const types = resources.map((key) => key.split(' ')[0]);
    for (const type of [
      'AWS::SQS::Queue',
      'AWS::SNS::Topic',
      'AWS::S3::Bucket',
      'AWS::IAM::Role',
      'AWS::Lambda::Function',
      'AWS::SSM::Parameter',
    ]) {
      expect(types, type).toContain(type);
    }
    ids = { ...(await cfnPhysicalIds(EXPORTER)), ...(await cfnPhysicalIds(IMPORTER)) };
    queueUrl = Object.entries(ids).find(([logicalId]) => logicalId.startsWith('Jobs'))![1];
    expect(await visibility(queueUrl)).toBe('30');
  });

  it('refuses to migrate the exporter while the importer is on CloudFormation; migrates importer then exporter', async () => {
    const dir = app(30);
    const refused = await cli(['import', EXPORTER, '--migrate-from-cloudformation', '-a', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('MIGRATE_EXPORTS_IMPORTED');
    expect(refused.stderr).toContain(`imported by ${IMPORTER}`);
    expect(await cfnStatus(EXPORTER)).toBe('CREATE_COMPLETE');

    for (const stackName of [IMPORTER, EXPORTER]) {
      const migrated = await cli(['import', stackName, '--migrate-from-cloudformation', '-a', dir]);
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(await cfnStatus(stackName)).toBeUndefined();
    }
    const recorded = { ...(await cdkdPhysicalIds(EXPORTER)), ...(await cdkdPhysicalIds(IMPORTER)) };
    for (const [logicalId, physicalId] of Object.entries(ids)) {
      if (logicalId === 'CDKMetadata') continue;
      expect(recorded[logicalId], logicalId).toBe(physicalId);
    }
    expect((await held()).sort()).toEqual(resources);
  });

  it('cdkd deploy updates the migrated stacks in place', async () => {
    const updated = await cli(['deploy', '--all', '-a', app(60)]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(await visibility(queueUrl)).toBe('60');
    expect((await held()).sort()).toEqual(resources);
  });

  it('refuses to export the importer before the exporter; exports exporter then importer', async () => {
    const early = await cli(['export', IMPORTER]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('EXPORT_IMPORTS_CDKD_EXPORT');
    expect(early.stderr).toContain(`(exported by ${EXPORTER})`);
    expect(await cdkdPhysicalIds(IMPORTER)).toBeDefined();
    expect(await cfnStatus(IMPORTER)).toBeUndefined();

    for (const stackName of [EXPORTER, IMPORTER]) {
      const exported = await cli(['export', stackName]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(await cfnStatus(stackName)).toBe('IMPORT_COMPLETE');
      expect(await cdkdPhysicalIds(stackName)).toBeUndefined();
    }
    const listed = { ...(await cfnPhysicalIds(EXPORTER)), ...(await cfnPhysicalIds(IMPORTER)) };
    for (const [logicalId, physicalId] of Object.entries(ids)) {
      if (logicalId === 'CDKMetadata') continue;
      expect(listed[logicalId], logicalId).toBe(physicalId);
    }
    expect((await held()).sort()).toEqual(resources);
  });

  it('cdk deploy updates the exported stacks; cdk destroy leaves nothing of the app', async () => {
    const dir = app(90);
    const updated = await cdk(['deploy', '--all', '--require-approval', 'never', '--app', dir]);
    expect(updated.code, updated.output).toBe(0);
    expect(await cfnStatus(EXPORTER)).toBe('UPDATE_COMPLETE');
    expect(await visibility(queueUrl)).toBe('90');
    expect((await held()).sort()).toEqual(resources);

    const destroyed = await cdk(['destroy', '--all', '--force', '--app', dir]);
    expect(destroyed.code, destroyed.output).toBe(0);
    expect(await cfnStatus(EXPORTER)).toBeUndefined();
    expect(await cfnStatus(IMPORTER)).toBeUndefined();
    expect(await held()).toEqual([]);
  });
}, 900_000);

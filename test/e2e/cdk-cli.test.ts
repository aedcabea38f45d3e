import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CloudFormationClient,
  DeleteStackCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  type Stack,
} from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCdk } from '../helpers/cdk-cli.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { useSandbox } from '../helpers/sandbox.js';

// The AWS CDK CLI (aws-cdk, a dev dependency) against the sandbox's CloudFormation:
// bootstrap, deploy of the example app (change sets, assets published through the
// bootstrap bucket under the roles it assumes), a no-change redeploy, an update, destroy.
const sandbox = useSandbox();
const APP = join(REPO_ROOT, 'examples/app');
const STACKS = ['CdkdDemoConsumer', 'CdkdDemoStorage'];
let output: string;
let cfn: CloudFormationClient;

const cdk = (args: string[]) => runCdk(sandbox.current.url, [...args, '--output', output], { cwd: APP });

async function stacks(): Promise<Stack[]> {
  return (await cfn.send(new DescribeStacksCommand({}))).Stacks ?? [];
}

beforeAll(() => {
  output = mkdtempSync(join(tmpdir(), 'cdk-cli-out-'));
  cfn = new CloudFormationClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });
});
afterAll(() => {
  cfn.destroy();
  rmSync(output, { recursive: true, force: true });
});

describe('the AWS CDK CLI against the sandbox', () => {
  it('cdk bootstrap deploys the CDKToolkit stack and its version parameter', async () => {
    const result = await cdk(['bootstrap', 'aws://000000000000/us-east-1']);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('Environment aws://000000000000/us-east-1 bootstrapped.');
    const toolkit = (await stacks()).find((s) => s.StackName === 'CDKToolkit');
    expect(toolkit?.StackStatus).toBe('CREATE_COMPLETE');
    const ssm = new SSMClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });
    const version = await ssm.send(new GetParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version' }));
    ssm.destroy();
    expect(Number(version.Parameter?.Value)).toBeGreaterThan(20);
  });

  it('cdk deploy --all deploys both stacks through change sets; the custom resource answers', async () => {
    const result = await cdk(['deploy', '--all', '--require-approval', 'never']);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('Published CdkdDemoStorage Template');
    // The CLI assumed the bootstrap's deploy and file-publishing roles (it warns when it falls back).
    expect(result.output).not.toContain('Could not assume role');
    const deployed = (await stacks()).filter((s) => STACKS.includes(s.StackName!));
    expect(deployed.map((s) => [s.StackName, s.StackStatus]).sort()).toEqual([
      ['CdkdDemoConsumer', 'CREATE_COMPLETE'],
      ['CdkdDemoStorage', 'CREATE_COMPLETE'],
    ]);
    const consumer = deployed.find((s) => s.StackName === 'CdkdDemoConsumer')!;
    const greeting = consumer.Outputs?.find((o) => o.OutputKey === 'Greeting')?.OutputValue;
    expect(greeting).toMatch(/^hello from a custom resource, reading bucket-/);
  });

  it('a second cdk deploy reports no changes', async () => {
    const result = await cdk(['deploy', '--all', '--require-approval', 'never']);
    expect(result.code, result.output).toBe(0);
    for (const name of STACKS) expect(result.output).toContain(`${name} (no changes)`);
  });

  it('cdk deploy with new stack tags updates both stacks', async () => {
    const result = await cdk(['deploy', '--all', '--require-approval', 'never', '--tags', 'revision=2']);
    expect(result.code, result.output).toBe(0);
    const deployed = (await stacks()).filter((s) => STACKS.includes(s.StackName!));
    for (const stack of deployed) {
      expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
      expect(stack.Tags).toContainEqual({ Key: 'revision', Value: '2' });
    }
  });

  it('cdk destroy --all leaves only the bootstrap stack; deleting it leaves what its template retains', async () => {
    const result = await cdk(['destroy', '--all', '--force']);
    expect(result.code, result.output).toBe(0);
    expect((await stacks()).map((s) => s.StackName)).toEqual(['CDKToolkit']);
    const toolkit = (await stacks())[0]!;
    // What is left is the bootstrap stack's: nothing of the app's stacks (Lambda's log groups aside, as on AWS).
    const toolkitIds = new Set(
      (await cfn.send(new DescribeStackResourcesCommand({ StackName: 'CDKToolkit' }))).StackResources!.map(
        (r) => r.PhysicalResourceId,
      ),
    );
    const left = (await stackResources(sandbox.current.url)).filter(
      (r) => r.type !== 'AWS::CloudFormation::Stack',
    );
    expect(left.filter((r) => !toolkitIds.has(r.id))).toEqual([]);

    await cfn.send(new DeleteStackCommand({ StackName: 'CDKToolkit' }));
    for (;;) {
      const left = await cfn.send(new DescribeStacksCommand({ StackName: toolkit.StackId! }));
      if (left.Stacks?.[0]?.StackStatus === 'DELETE_COMPLETE') break;
      await new Promise((done) => setTimeout(done, 50));
    }
    // The bootstrap template keeps its staging bucket (DeletionPolicy Retain), as on AWS.
    expect((await stackResources(sandbox.current.url)).map((r) => `${r.type} ${r.id}`)).toEqual([
      'AWS::S3::Bucket cdk-hnb659fds-assets-000000000000-us-east-1',
    ]);
  });
}, 600_000);

import { CfnOutput, Stack } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

/**
 * Planning an app nothing of which is deployed yet, through the built CLI: a stack reads the
 * bucket of another through CDK's export (as examples/app does), and a third stack defines no
 * resources. The export is known only after the first stack deploys, and the plans say so.
 */
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

function app(): string {
  return synthesizeApp((cdk) => {
    const storage = new Stack(cdk, 'Storage');
    const bucket = new Bucket(storage, 'Data');
    const consumer = new Stack(cdk, 'Consumer');
    new Role(consumer, 'Reader', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: {
        Read: new PolicyDocument({
          statements: [
            new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('*')] }),
          ],
        }),
      },
    });
    new StringParameter(consumer, 'BucketName', { stringValue: bucket.bucketName });
    new CfnOutput(consumer, 'ConsumedBucketName', { value: bucket.bucketName });
    // No construct, and no CDK metadata resource either: a template with no Resources.
    new Stack(cdk, 'Empty', { analyticsReporting: false });
  });
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('deploy --all --dry-run and diff --all before anything is deployed', () => {
  it('show an export made earlier in the run as known after deploy, and skip a stack with no resources', async () => {
    const assembly = app();
    const skipped = 'Empty: defines no resources and was never deployed; skipped.';

    const dryRun = await cli(['deploy', '--all', '--dry-run', '-a', assembly]);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stderr).toContain(skipped);
    expect(dryRun.stderr).not.toContain('IMPORT_NOT_FOUND');
    const consumerPlan = dryRun.stdout.slice(dryRun.stdout.indexOf('Consumer\n'));
    expect(consumerPlan).toMatch(
      /\+ {3}BucketName\w+ \(AWS::SSM::Parameter\): new in the template\n {4}Value: \(known after deploy\), reads export Storage:ExportsOutputRefData\w+, which Storage creates when it deploys before this stack\n/,
    );
    expect(consumerPlan).toMatch(
      /Reader\w+ \(AWS::IAM::Role\): new in the template\n {4}Policies: \(known after deploy\)/,
    );
    expect(dryRun.stdout).not.toContain('Empty');
    expect((await cli(['state', 'list'])).stdout).toContain('No stacks recorded');

    const diff = await cli(['diff', '--all', '-a', assembly]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stderr).toContain(skipped);
    expect(diff.stdout).toContain('Outputs:\n  + ConsumedBucketName: (known after deploy)\n');
    expect(diff.stdout).toContain('Value: (known after deploy), reads export Storage:ExportsOutputRefData');
    const json = await cli(['diff', '--all', '--json', '-a', assembly]);
    expect(JSON.parse(json.stdout).Consumer.outputs).toEqual([
      { name: 'ConsumedBucketName', knownAfterDeploy: true },
    ]);

    // The deploy the plans describe: the empty stack skipped again, the others made as planned.
    const deployed = await cli(['deploy', '--all', '-a', assembly]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stderr).toContain(skipped);
    expect((await cli(['diff', '--all', '--fail', '-a', assembly])).code).toBe(0);
    expect((await cli(['state', 'list'])).stdout).not.toContain('Empty');

    // A deployed stack whose template now defines no resources is refused, as CloudFormation would.
    const emptied = synthesizeApp((cdk) => new Stack(cdk, 'Consumer', { analyticsReporting: false }));
    for (const command of [['deploy'], ['diff'], ['deploy', '--dry-run']]) {
      const refused = await cli([...command, 'Consumer', '-a', emptied]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('TEMPLATE_INVALID');
      expect(refused.stderr).toContain('to remove every resource of a deployed stack, run cdkd destroy');
    }
  }, 300_000);
});

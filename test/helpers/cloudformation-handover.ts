import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  type StackResource,
} from '@aws-sdk/client-cloudformation';
import { afterAll, beforeAll, expect } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from './cli.js';
import { sandboxEnv, useSandbox } from './sandbox.js';

export type Template = { Resources: Record<string, unknown>; Outputs?: Record<string, unknown> };

/**
 * The hand-over tests' harness: a sandbox bootstrapped for cdkd, a CloudFormation client on it,
 * and what the tests ask of both sides (which stack CloudFormation holds, what cdkd records).
 */
export function useHandover() {
  const sandbox = useSandbox();
  const env = () => sandboxEnv(sandbox.current.url);
  const cli = (args: string[]) => runCli(args, { env: env() });
  let cfn: CloudFormationClient;

  beforeAll(async () => {
    cfn = new CloudFormationClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });
    expect((await cli(['bootstrap'])).code).toBe(0);
  });
  afterAll(() => cfn.destroy());

  function app(stackName: string, template: Template): string {
    const dir = tempDir();
    writeAssembly(dir, [{ id: stackName, template }]);
    return dir;
  }

  /**
   * A bucket and a log group with names of their own, as CloudFormation and cdkd both make them
   * (types whose sandbox Cloud Control handler is the service's own store, so cdkd reads what
   * the sandbox's CloudFormation made).
   */
  function pair(prefix: string, extra: Record<string, unknown> = {}): Template {
    return {
      Resources: {
        Data: { Type: 'AWS::S3::Bucket', Properties: { BucketName: `${prefix}-data`, ...extra } },
        Jobs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `${prefix}-jobs` } },
      },
    };
  }

  async function cfnStatus(stackName: string): Promise<string | undefined> {
    try {
      const stack = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
      return stack?.StackStatus === 'DELETE_COMPLETE' ? undefined : stack?.StackStatus;
    } catch {
      return undefined;
    }
  }

  async function settled(stackName: string): Promise<string | undefined> {
    for (;;) {
      const status = await cfnStatus(stackName);
      if (!status?.endsWith('_IN_PROGRESS') || status === 'REVIEW_IN_PROGRESS') return status;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function cfnResources(stackName: string): Promise<StackResource[]> {
    if ((await cfnStatus(stackName)) === undefined) return [];
    return (await cfn.send(new DescribeStackResourcesCommand({ StackName: stackName }))).StackResources ?? [];
  }

  async function createCfnStack(stackName: string, template: Template): Promise<void> {
    await cfn.send(new CreateStackCommand({ StackName: stackName, TemplateBody: JSON.stringify(template) }));
    expect(await settled(stackName)).toBe('CREATE_COMPLETE');
  }

  async function recorded(stackName: string): Promise<Record<string, { physicalId: string }> | undefined> {
    const shown = await cli(['state', 'show', stackName, '--json']);
    return shown.code === 0 ? JSON.parse(shown.stdout).resources : undefined;
  }

  /**
   * Each of the stack's logical ids is managed by exactly one side: recorded in cdkd's state
   * or listed by the CloudFormation stack (the export holder's placeholder aside), and the
   * sandbox still holds the resource.
   */
  async function managedByOneSide(
    stackName: string,
    logicalIds: readonly string[],
    cfnName = stackName,
  ): Promise<void> {
    const state = (await recorded(stackName)) ?? {};
    const listed = (await cfnResources(cfnName)).filter((r) => r.LogicalResourceId !== 'CdkdMigratedExports');
    for (const id of logicalIds) {
      const sides = [id in state, listed.some((r) => r.LogicalResourceId === id)].filter(Boolean).length;
      expect(
        sides,
        `${id}: cdkd ${id in state}, CloudFormation ${listed.map((r) => r.LogicalResourceId)}`,
      ).toBe(1);
    }
  }

  return {
    sandbox,
    env,
    cli,
    cfn: () => cfn,
    app,
    pair,
    cfnStatus,
    settled,
    cfnResources,
    createCfnStack,
    recorded,
    managedByOneSide,
  };
}

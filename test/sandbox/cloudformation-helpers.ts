import {
  CloudFormationClient,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  type Stack,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import type { SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { ssmClient } from './helpers.js';

export function cloudFormationClient(sandbox: Sandbox): CloudFormationClient {
  return new CloudFormationClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
}

/** A template body from a resources map (and optional outputs, parameters, conditions). */
export function template(resources: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ AWSTemplateFormatVersion: '2010-09-09', Resources: resources, ...extra });
}

/** Polls DescribeStacks every 20 ms until the stack leaves every *_IN_PROGRESS status. */
export async function settled(client: CloudFormationClient, stackName: string): Promise<Stack> {
  for (;;) {
    const stack = (await client.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks![0]!;
    if (!stack.StackStatus!.endsWith('_IN_PROGRESS')) return stack;
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** Every event of a stack, oldest first (DescribeStackEvents answers newest first). */
export async function eventsOf(client: CloudFormationClient, stackName: string): Promise<StackEvent[]> {
  const events: StackEvent[] = [];
  let NextToken: string | undefined;
  do {
    const page = await client.send(new DescribeStackEventsCommand({ StackName: stackName, NextToken }));
    events.push(...(page.StackEvents ?? []));
    NextToken = page.NextToken;
  } while (NextToken);
  return events.reverse();
}

/** `LogicalId STATUS` for each event, oldest first. */
export async function eventTrail(client: CloudFormationClient, stackName: string): Promise<string[]> {
  return (await eventsOf(client, stackName)).map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);
}

/** An AWS::SSM::Parameter resource (a String), with any resource attributes in `extra`. */
export function ssmParameter(name: unknown, value: unknown, extra: Record<string, unknown> = {}) {
  return { Type: 'AWS::SSM::Parameter', Properties: { Name: name, Type: 'String', Value: value }, ...extra };
}

/** A resource whose create fails: CloudFormation cannot create SecureString parameters. */
export function brokenParameter(dependsOn?: string) {
  return {
    Type: 'AWS::SSM::Parameter',
    Properties: { Type: 'SecureString', Value: 'never' },
    ...(dependsOn ? { DependsOn: dependsOn } : {}),
  };
}

/** A sandbox for the test file with CloudFormation and SSM clients, all stopped after it. */
export function useCloudFormation(): {
  readonly sandbox: Sandbox;
  readonly cfn: CloudFormationClient;
  readonly ssm: SSMClient;
} {
  const holder: { sandbox?: Sandbox; cfn?: CloudFormationClient; ssm?: SSMClient } = {};
  beforeAll(async () => {
    holder.sandbox = await startSandbox({ port: 0 });
    holder.cfn = cloudFormationClient(holder.sandbox);
    holder.ssm = ssmClient(holder.sandbox);
  });
  afterAll(async () => {
    holder.cfn?.destroy();
    holder.ssm?.destroy();
    await holder.sandbox?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('sandbox not started');
    return value;
  };
  return {
    get sandbox() {
      return started(holder.sandbox);
    },
    get cfn() {
      return started(holder.cfn);
    },
    get ssm() {
      return started(holder.ssm);
    },
  };
}

import {
  CloudFormationClient,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  type Stack,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import type { Sandbox } from '../../src/sandbox/server.js';

export const ACCOUNT = '123456789012';

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

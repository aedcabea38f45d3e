import {
  CreateChangeSetCommand,
  DeleteChangeSetCommand,
  DescribeChangeSetCommand,
  DescribeStackResourceCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  ListChangeSetsCommand,
  type CloudFormationClient,
  type DescribeChangeSetCommandOutput,
} from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudFormationClient, eventTrail, settled, template } from './cloudformation-helpers.js';
import { failure, ssmClient } from './helpers.js';

let sandbox: Sandbox;
let cfn: CloudFormationClient;
let ssm: SSMClient;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cfn = cloudFormationClient(sandbox);
  ssm = ssmClient(sandbox);
  logs = new CloudWatchLogsClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  cfn.destroy();
  ssm.destroy();
  logs.destroy();
  await sandbox.stop();
});

/** Polls DescribeChangeSet until its status leaves CREATE_PENDING / CREATE_IN_PROGRESS. */
async function ready(StackName: string, ChangeSetName: string): Promise<DescribeChangeSetCommandOutput> {
  for (;;) {
    const answer = await cfn.send(new DescribeChangeSetCommand({ StackName, ChangeSetName }));
    if (!['CREATE_PENDING', 'CREATE_IN_PROGRESS'].includes(answer.Status!)) return answer;
    await new Promise((done) => setTimeout(done, 20));
  }
}

const group = (properties: Record<string, unknown> = {}) => ({
  Type: 'AWS::Logs::LogGroup',
  Properties: properties,
});

describe('change sets: CREATE, UPDATE, IMPORT', () => {
  it('a CREATE change set makes a REVIEW_IN_PROGRESS stack, lists its changes, and executes', async () => {
    const created = await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'cs',
        ChangeSetName: 'first',
        ChangeSetType: 'CREATE',
        TemplateBody: template({ Group: group({ RetentionInDays: 7 }) }),
      }),
    );
    expect(created.Id).toMatch(/^arn:aws:cloudformation:us-east-1:\d{12}:changeSet\/first\//);
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'cs' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('REVIEW_IN_PROGRESS');
    const described = await ready('cs', 'first');
    expect(described.Status).toBe('CREATE_COMPLETE');
    expect(described.ExecutionStatus).toBe('AVAILABLE');
    expect(
      described.Changes?.map((c) => [c.ResourceChange?.Action, c.ResourceChange?.LogicalResourceId]),
    ).toEqual([['Add', 'Group']]);
    const listed = await cfn.send(new ListChangeSetsCommand({ StackName: 'cs' }));
    expect(listed.Summaries?.map((s) => s.ChangeSetName)).toEqual(['first']);

    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'cs', ChangeSetName: 'first' }));
    expect((await settled(cfn, 'cs')).StackStatus).toBe('CREATE_COMPLETE');
    const after = (await cfn.send(new ListChangeSetsCommand({ StackName: 'cs' }))).Summaries;
    expect(after?.map((s) => [s.ChangeSetName, s.ExecutionStatus])).toEqual([['first', 'EXECUTE_COMPLETE']]);
  });

  it('an UPDATE change set of an unnamed log group updates it in place, keeping the name CloudFormation gave it', async () => {
    const before = await groupName('cs');
    await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'cs',
        ChangeSetName: 'longer',
        TemplateBody: template({ Group: group({ RetentionInDays: 30 }) }),
      }),
    );
    const described = await ready('cs', 'longer');
    expect(described.Changes?.[0]?.ResourceChange).toMatchObject({
      Action: 'Modify',
      LogicalResourceId: 'Group',
      Replacement: 'False',
    });
    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'cs', ChangeSetName: 'longer' }));
    expect((await settled(cfn, 'cs')).StackStatus).toBe('UPDATE_COMPLETE');
    expect(await groupName('cs')).toBe(before);
    const groups = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: before }));
    expect(groups.logGroups?.map((g) => [g.logGroupName, g.retentionInDays])).toEqual([[before, 30]]);
  });

  it('a change set with no changes FAILED with the reason AWS gives; DeleteChangeSet removes it', async () => {
    await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'cs',
        ChangeSetName: 'same',
        TemplateBody: template({ Group: group({ RetentionInDays: 30 }) }),
      }),
    );
    const described = await ready('cs', 'same');
    expect(described.Status).toBe('FAILED');
    expect(described.StatusReason).toBe(
      "The submitted information didn't contain changes. Submit different information to create a change set.",
    );
    await cfn.send(new DeleteChangeSetCommand({ StackName: 'cs', ChangeSetName: 'same' }));
    const left = (await cfn.send(new ListChangeSetsCommand({ StackName: 'cs' }))).Summaries;
    expect(left?.map((s) => s.ChangeSetName)).not.toContain('same');
  });

  it('deleting a change set the stack does not have succeeds (the CDK CLI deletes its own before creating)', async () => {
    await cfn.send(new DeleteChangeSetCommand({ StackName: 'cs', ChangeSetName: 'cdk-deploy-change-set' }));
    const unknownStack = await failure(
      cfn.send(new DescribeChangeSetCommand({ StackName: 'cs', ChangeSetName: 'cdk-deploy-change-set' })),
    );
    expect(unknownStack.name).toBe('ChangeSetNotFoundException');
  });

  it('an IMPORT change set adopts an existing parameter; a missing one is refused', async () => {
    await ssm.send(new PutParameterCommand({ Name: '/adopt/me', Type: 'String', Value: 'mine' }));
    const body = template({
      Adopted: {
        Type: 'AWS::SSM::Parameter',
        DeletionPolicy: 'Retain',
        Properties: { Name: '/adopt/me', Type: 'String', Value: 'mine' },
      },
    });
    const missing = await failure(
      cfn
        .send(
          new CreateChangeSetCommand({
            StackName: 'imported',
            ChangeSetName: 'missing',
            ChangeSetType: 'IMPORT',
            TemplateBody: template({
              Adopted: {
                Type: 'AWS::SSM::Parameter',
                DeletionPolicy: 'Retain',
                Properties: { Name: '/adopt/none', Type: 'String', Value: 'x' },
              },
            }),
            ResourcesToImport: [
              {
                ResourceType: 'AWS::SSM::Parameter',
                LogicalResourceId: 'Adopted',
                ResourceIdentifier: { Name: '/adopt/none' },
              },
            ],
          }),
        )
        .then(() => ready('imported', 'missing'))
        .then((answer) => {
          if (answer.Status === 'FAILED') throw new Error(answer.StatusReason);
        }),
    );
    expect(missing.error.message).toMatch(/\/adopt\/none/);

    await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'adopting',
        ChangeSetName: 'adopt',
        ChangeSetType: 'IMPORT',
        TemplateBody: body,
        ResourcesToImport: [
          {
            ResourceType: 'AWS::SSM::Parameter',
            LogicalResourceId: 'Adopted',
            ResourceIdentifier: { Name: '/adopt/me' },
          },
        ],
      }),
    );
    const described = await ready('adopting', 'adopt');
    expect(described.Changes?.[0]?.ResourceChange?.Action).toBe('Import');
    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'adopting', ChangeSetName: 'adopt' }));
    expect((await settled(cfn, 'adopting')).StackStatus).toBe('IMPORT_COMPLETE');
    expect(await eventTrail(cfn, 'adopting')).toContain('Adopted IMPORT_COMPLETE');
  });
});

async function groupName(stackName: string): Promise<string> {
  const detail = await cfn.send(
    new DescribeStackResourceCommand({ StackName: stackName, LogicalResourceId: 'Group' }),
  );
  return detail.StackResourceDetail!.PhysicalResourceId!;
}

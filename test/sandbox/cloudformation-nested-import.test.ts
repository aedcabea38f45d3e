import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudFormationClient, settled, template } from './cloudformation-helpers.js';
import { s3Client } from './helpers.js';

// An IMPORT change set nesting an existing stack (AWS::CloudFormation::Stack by StackId), by
// AWS's rules: one level only, and the row's TemplateURL holds the stack's own template.
let sandbox: Sandbox;
let cfn: CloudFormationClient;
let s3: S3Client;
const BUCKET = 'nested-import-templates';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cfn = cloudFormationClient(sandbox);
  s3 = s3Client(sandbox);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterAll(async () => {
  cfn.destroy();
  s3.destroy();
  await sandbox.stop();
});

const waitHandle = { Type: 'AWS::CloudFormation::WaitConditionHandle' };

async function upload(key: string, body: string): Promise<string> {
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
  return `https://s3.us-east-1.amazonaws.com/${BUCKET}/${key}`;
}

async function createStack(StackName: string, body: string): Promise<string> {
  await cfn.send(new CreateStackCommand({ StackName, TemplateBody: body }));
  const stack = await settled(cfn, StackName);
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  return stack.StackId!;
}

/**
 * Nests `stackId` into a new stack `parent` by IMPORT, its row's template at `url`: the
 * parent's final status, or CreateChangeSet's refusal.
 */
async function importNested(parent: string, stackId: string, url: string): Promise<string> {
  const ChangeSetName = 'nest';
  const refused = await cfn
    .send(
      new CreateChangeSetCommand({
        StackName: parent,
        ChangeSetName,
        ChangeSetType: 'IMPORT',
        TemplateBody: template({
          Child: {
            Type: 'AWS::CloudFormation::Stack',
            DeletionPolicy: 'Retain',
            Properties: { TemplateURL: url },
          },
        }),
        ResourcesToImport: [
          {
            ResourceType: 'AWS::CloudFormation::Stack',
            LogicalResourceId: 'Child',
            ResourceIdentifier: { StackId: stackId },
          },
        ],
      }),
    )
    .then(
      () => undefined,
      (error: Error) => `${error.name}: ${error.message}`,
    );
  if (refused) return refused;
  for (;;) {
    const status = (await cfn.send(new DescribeChangeSetCommand({ StackName: parent, ChangeSetName })))
      .Status;
    if (status === 'CREATE_COMPLETE') break;
    if (status === 'FAILED') return 'CHANGE_SET_FAILED';
    await new Promise((done) => setTimeout(done, 20));
  }
  await cfn.send(new ExecuteChangeSetCommand({ StackName: parent, ChangeSetName }));
  return (await settled(cfn, parent)).StackStatus!;
}

async function parentOf(stackId: string): Promise<string | undefined> {
  return (await cfn.send(new DescribeStacksCommand({ StackName: stackId }))).Stacks![0]!.ParentId;
}

describe('IMPORT of an existing stack as a nested stack', () => {
  it('nests it: its ParentId and RootId name the importing stack, which lists it by its stack id', async () => {
    const body = template({ Handle: waitHandle });
    const childId = await createStack('lone-child', body);
    expect(await importNested('adopter', childId, await upload('lone.json', body))).toBe('IMPORT_COMPLETE');
    const parent = await settled(cfn, 'adopter');
    const child = (await cfn.send(new DescribeStacksCommand({ StackName: childId }))).Stacks![0]!;
    expect(child.ParentId).toBe(parent.StackId);
    expect(child.RootId).toBe(parent.StackId);
  });

  it.each([
    [
      'a template at TemplateURL other than the stack holds',
      async () => {
        const id = await createStack('mismatched', template({ Handle: waitHandle }));
        return { id, url: await upload('other.json', template({ Other: waitHandle })) };
      },
      'IMPORT_ROLLBACK_COMPLETE',
    ],
    [
      'a stack that has nested stacks of its own',
      async () => {
        const grandUrl = await upload('grand.json', template({ Handle: waitHandle }));
        const body = template({
          Grand: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: grandUrl } },
        });
        const id = await createStack('has-children', body);
        return { id, url: await upload('has-children.json', body) };
      },
      'IMPORT_ROLLBACK_COMPLETE',
    ],
    [
      'a stack already nested in another',
      async () => {
        const body = template({ Handle: waitHandle });
        const id = await createStack('taken', body);
        const url = await upload('taken.json', body);
        expect(await importNested('first-owner', id, url)).toBe('IMPORT_COMPLETE');
        return { id, url };
      },
      'ValidationError: The resource arn:aws:cloudformation:us-east-1:000000000000:stack/taken/',
    ],
  ])('refuses %s, and the stack stays as it was', async (_case, setup, outcome) => {
    const { id, url } = await setup();
    const before = await parentOf(id);
    const parent = `refusing-${id.slice(-8)}`;
    expect(await importNested(parent, id, url)).toContain(outcome);
    expect(await parentOf(id)).toBe(before);
  });
});

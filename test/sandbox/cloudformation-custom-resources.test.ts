import {
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourceCommand,
  UpdateStackCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { GetFunctionCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  brokenParameter,
  cloudFormationClient,
  eventsOf,
  settled,
  template,
} from './cloudformation-helpers.js';
import { failure, lambdaClient } from './helpers.js';

let sandbox: Sandbox;
let cfn: CloudFormationClient;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cfn = cloudFormationClient(sandbox);
  lambda = lambdaClient(sandbox);
});
afterAll(async () => {
  cfn.destroy();
  lambda.destroy();
  await sandbox.stop();
});

/**
 * Inline (ZipFile) handler code, as a CDK app writes it: it answers on the pre-signed
 * ResponseURL, echoing `Value`; it fails when `Fail` is set, a rollback from properties with
 * `FailRollback`, and a Delete with `FailDelete`.
 */
const HANDLER = `
exports.handler = async (event) => {
  const props = event.ResourceProperties;
  const old = event.OldResourceProperties || {};
  const failed = event.RequestType === 'Delete' ? props.FailDelete === 'yes' : props.Fail === 'yes' || old.FailRollback === 'yes';
  const body = JSON.stringify({
    Status: failed ? 'FAILED' : 'SUCCESS',
    Reason: failed ? 'told to fail' : undefined,
    PhysicalResourceId: event.PhysicalResourceId || 'thing-' + props.Value,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: { Echo: props.Value + '/' + event.RequestType, Old: event.OldResourceProperties ? event.OldResourceProperties.Value : 'none' },
  });
  const response = await fetch(event.ResponseURL, { method: 'PUT', body });
  if (!response.ok) throw new Error('answer refused: ' + response.status);
};`;

const resources = (value: string, extra: Record<string, unknown> = {}, timeout = 10) => ({
  Role: {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      },
    },
  },
  Fn: {
    Type: 'AWS::Lambda::Function',
    Properties: {
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
      Timeout: timeout,
      Code: { ZipFile: HANDLER },
    },
  },
  Thing: {
    Type: 'Custom::Thing',
    Properties: { ServiceToken: { 'Fn::GetAtt': ['Fn', 'Arn'] }, Value: value, ...extra },
  },
});

const outputs = {
  Outputs: {
    Echo: { Value: { 'Fn::GetAtt': ['Thing', 'Echo'] } },
    Old: { Value: { 'Fn::GetAtt': ['Thing', 'Old'] } },
  },
};

const outputsOf = async (name: string) =>
  Object.fromEntries(((await settled(cfn, name)).Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));

const physicalId = async (stack: string, logical: string) =>
  (await cfn.send(new DescribeStackResourceCommand({ StackName: stack, LogicalResourceId: logical })))
    .StackResourceDetail!.PhysicalResourceId!;

describe('custom resources backed by a Lambda function with inline code', () => {
  it('Create: the function answers on the ResponseURL; its Data is what Fn::GetAtt reads', async () => {
    const body = template(resources('a'), outputs);
    const refused = await failure(
      cfn.send(new CreateStackCommand({ StackName: 'custom', TemplateBody: body })),
    );
    expect(refused.name).toBe('InsufficientCapabilitiesException');
    expect(refused.error.message).toBe('Requires capabilities : [CAPABILITY_IAM]');
    await cfn.send(
      new CreateStackCommand({ StackName: 'custom', TemplateBody: body, Capabilities: ['CAPABILITY_IAM'] }),
    );
    expect((await settled(cfn, 'custom')).StackStatus).toBe('CREATE_COMPLETE');
    expect(await outputsOf('custom')).toEqual({ Echo: 'a/Create', Old: 'none' });
    expect(await physicalId('custom', 'Thing')).toBe('thing-a');
  });

  it('Update: the function gets the old properties; an unnamed function updated in place keeps its name', async () => {
    const fnBefore = await physicalId('custom', 'Fn');
    await cfn.send(
      new UpdateStackCommand({
        StackName: 'custom',
        TemplateBody: template(resources('b', {}, 20), outputs),
        Capabilities: ['CAPABILITY_IAM'],
      }),
    );
    expect((await settled(cfn, 'custom')).StackStatus).toBe('UPDATE_COMPLETE');
    expect(await outputsOf('custom')).toEqual({ Echo: 'b/Update', Old: 'a' });
    expect(await physicalId('custom', 'Fn')).toBe(fnBefore);
    const fn = await lambda.send(new GetFunctionCommand({ FunctionName: fnBefore }));
    expect(fn.Configuration?.Timeout).toBe(20);
  });

  it('an answer of FAILED fails the resource with its Reason and rolls the update back', async () => {
    await cfn.send(
      new UpdateStackCommand({
        StackName: 'custom',
        TemplateBody: template(resources('c', { Fail: 'yes' }, 20), outputs),
        Capabilities: ['CAPABILITY_IAM'],
      }),
    );
    expect((await settled(cfn, 'custom')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const failed = (await eventsOf(cfn, 'custom')).find(
      (e) => e.LogicalResourceId === 'Thing' && e.ResourceStatus === 'UPDATE_FAILED',
    );
    expect(failed?.ResourceStatusReason).toContain('told to fail');
    expect(await outputsOf('custom')).toEqual({ Echo: 'b/Update', Old: 'a' });
  });

  it('a ServiceToken naming no function fails the create', async () => {
    await cfn.send(
      new CreateStackCommand({
        StackName: 'custom-nowhere',
        TemplateBody: template({
          Thing: {
            Type: 'Custom::Thing',
            Properties: { ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:nowhere' },
          },
        }),
      }),
    );
    expect((await settled(cfn, 'custom-nowhere')).StackStatus).toBe('ROLLBACK_COMPLETE');
    const failed = (await eventsOf(cfn, 'custom-nowhere')).find((e) => e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toContain('nowhere');
  });

  it('ContinueUpdateRollback with ResourcesToSkip gets a stack out of UPDATE_ROLLBACK_FAILED', async () => {
    // Thing updates; Bad fails; Thing's rollback fails (its handler refuses to leave these properties).
    const attempt = template(
      { ...resources('d', { FailRollback: 'yes' }, 20), Bad: brokenParameter('Thing') },
      outputs,
    );
    await cfn.send(
      new UpdateStackCommand({
        StackName: 'custom',
        TemplateBody: attempt,
        Capabilities: ['CAPABILITY_IAM'],
      }),
    );
    expect((await settled(cfn, 'custom')).StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    const refused = await failure(
      cfn.send(
        new UpdateStackCommand({
          StackName: 'custom',
          TemplateBody: attempt,
          Capabilities: ['CAPABILITY_IAM'],
        }),
      ),
    );
    expect(refused.error.message).toContain('UPDATE_ROLLBACK_FAILED state and can not be updated');
    await cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'custom', ResourcesToSkip: ['Thing'] }));
    expect((await settled(cfn, 'custom')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await outputsOf('custom')).toEqual({ Echo: 'b/Update', Old: 'a' });
  });

  it('DeleteStack: a resource that fails to delete leaves DELETE_FAILED; RetainResources then lets the stack go', async () => {
    const body = template(resources('e', { FailDelete: 'yes' }));
    await cfn.send(
      new CreateStackCommand({ StackName: 'sticky', TemplateBody: body, Capabilities: ['CAPABILITY_IAM'] }),
    );
    expect((await settled(cfn, 'sticky')).StackStatus).toBe('CREATE_COMPLETE');
    const early = await failure(
      cfn.send(new DeleteStackCommand({ StackName: 'sticky', RetainResources: ['Thing'] })),
    );
    expect(early.error.message).toContain(
      'RetainResources can only be specified when the stack is in the DELETE_FAILED state',
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'sticky' }));
    const failed = await settled(cfn, 'sticky');
    expect(failed.StackStatus).toBe('DELETE_FAILED');
    expect(failed.StackStatusReason).toContain('[Thing]');
    const fn = await physicalId('sticky', 'Fn');
    await cfn.send(new DeleteStackCommand({ StackName: 'sticky', RetainResources: ['Thing'] }));
    expect((await failure(settled(cfn, 'sticky'))).name).toBe('ValidationError');
    expect((await failure(lambda.send(new GetFunctionCommand({ FunctionName: fn })))).name).toBe(
      'ResourceNotFoundException',
    );
  });

  it('Delete: the function is asked to delete, then the function itself is removed', async () => {
    const fn = await physicalId('custom', 'Fn');
    await cfn.send(new DeleteStackCommand({ StackName: 'custom' }));
    expect((await failure(settled(cfn, 'custom'))).name).toBe('ValidationError');
    const deleted = (await failure(lambda.send(new GetFunctionCommand({ FunctionName: fn })))).name;
    expect(deleted).toBe('ResourceNotFoundException');
  });
});

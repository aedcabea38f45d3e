import {
  CancelUpdateStackCommand,
  CreateStackCommand,
  GetTemplateSummaryCommand,
  ListStackResourcesCommand,
  RollbackStackCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, PutParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import {
  brokenParameter,
  eventTrail,
  settled,
  ssmParameter,
  template,
  useCloudFormation,
} from './cloudformation-helpers.js';
import { admin, failure } from './helpers.js';

const env = useCloudFormation();

const valueOf = async (Name: string) =>
  (await env.ssm.send(new GetParameterCommand({ Name }))).Parameter?.Value;

/** A CDK-style template: the bootstrap version read from SSM, checked by a Rule. */
const checked = template(
  { Copy: ssmParameter('/params/copy', { Ref: 'BootstrapVersion' }) },
  {
    Parameters: {
      BootstrapVersion: {
        Type: 'AWS::SSM::Parameter::Value<String>',
        Default: '/params/bootstrap-version',
      },
    },
    Rules: {
      CheckBootstrapVersion: {
        Assertions: [
          {
            Assert: {
              'Fn::Not': [{ 'Fn::Contains': [['1', '2', '3', '4', '5'], { Ref: 'BootstrapVersion' }] }],
            },
            AssertDescription: 'This stack needs a newer bootstrap.',
          },
        ],
      },
    },
  },
);

describe('SSM-typed parameters, Rules and Conditions', () => {
  it('an SSM-typed parameter reads the Parameter Store; a Rule that fails refuses the stack', async () => {
    await env.ssm.send(
      new PutParameterCommand({ Name: '/params/bootstrap-version', Type: 'String', Value: '3' }),
    );
    const refused = await failure(
      env.cfn.send(new CreateStackCommand({ StackName: 'checked', TemplateBody: checked })),
    );
    expect(refused.name).toBe('ValidationError');
    expect(refused.error.message).toContain('This stack needs a newer bootstrap.');

    await env.ssm.send(
      new PutParameterCommand({
        Name: '/params/bootstrap-version',
        Type: 'String',
        Value: '30',
        Overwrite: true,
      }),
    );
    await env.cfn.send(new CreateStackCommand({ StackName: 'checked', TemplateBody: checked }));
    const stack = await settled(env.cfn, 'checked');
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(await valueOf('/params/copy')).toBe('30');
    // DescribeStacks shows the resolved value of an SSM-typed parameter.
    expect(stack.Parameters).toEqual([
      { ParameterKey: 'BootstrapVersion', ParameterValue: '/params/bootstrap-version', ResolvedValue: '30' },
    ]);
  });

  it('a resource whose Condition is false is not created', async () => {
    const body = template(
      {
        Always: ssmParameter('/params/always', 'a'),
        Sometimes: ssmParameter('/params/sometimes', 'b', { Condition: 'IsProd' }),
      },
      {
        Parameters: { Stage: { Type: 'String', AllowedValues: ['dev', 'prod'] } },
        Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Stage' }, 'prod'] } },
      },
    );
    await env.cfn.send(
      new CreateStackCommand({
        StackName: 'conditional',
        TemplateBody: body,
        Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'dev' }],
      }),
    );
    expect((await settled(env.cfn, 'conditional')).StackStatus).toBe('CREATE_COMPLETE');
    const listed = await env.cfn.send(new ListStackResourcesCommand({ StackName: 'conditional' }));
    expect(listed.StackResourceSummaries?.map((r) => r.LogicalResourceId)).toEqual(['Always']);
    expect((await failure(valueOf('/params/sometimes'))).name).toBe('ParameterNotFound');
    const outside = await failure(
      env.cfn.send(
        new UpdateStackCommand({
          StackName: 'conditional',
          TemplateBody: body,
          Parameters: [{ ParameterKey: 'Stage', ParameterValue: 'test' }],
        }),
      ),
    );
    expect(outside.name).toBe('ValidationError');
  });

  it('GetTemplateSummary lists parameters, resource types and their identifiers', async () => {
    const summary = await env.cfn.send(new GetTemplateSummaryCommand({ TemplateBody: checked }));
    expect(summary.Parameters?.map((p) => p.ParameterKey)).toEqual(['BootstrapVersion']);
    expect(summary.ResourceTypes).toEqual(['AWS::SSM::Parameter']);
    expect(summary.ResourceIdentifierSummaries).toEqual([
      { ResourceType: 'AWS::SSM::Parameter', LogicalResourceIds: ['Copy'], ResourceIdentifiers: ['Name'] },
    ]);
  });
});

describe('getting a stack out of a failed or running update', () => {
  it('RollbackStack takes an UPDATE_FAILED stack (DisableRollback) back to its last stable state', async () => {
    await env.cfn.send(
      new CreateStackCommand({
        StackName: 'stuck',
        TemplateBody: template({ P: ssmParameter('/params/stuck', 'a') }),
      }),
    );
    expect((await settled(env.cfn, 'stuck')).StackStatus).toBe('CREATE_COMPLETE');
    await env.cfn.send(
      new UpdateStackCommand({
        StackName: 'stuck',
        TemplateBody: template({ P: ssmParameter('/params/stuck', 'b'), Bad: brokenParameter('P') }),
        DisableRollback: true,
      }),
    );
    expect((await settled(env.cfn, 'stuck')).StackStatus).toBe('UPDATE_FAILED');
    expect(await valueOf('/params/stuck')).toBe('b');
    await env.cfn.send(new RollbackStackCommand({ StackName: 'stuck' }));
    expect((await settled(env.cfn, 'stuck')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await valueOf('/params/stuck')).toBe('a');
  });

  it('CancelUpdateStack rolls a running update back', async () => {
    await env.cfn.send(
      new CreateStackCommand({
        StackName: 'cancel',
        TemplateBody: template({ P: ssmParameter('/params/cancel', 'a') }),
      }),
    );
    expect((await settled(env.cfn, 'cancel')).StackStatus).toBe('CREATE_COMPLETE');
    await admin(env.sandbox, 'PUT', 'latency', { types: { 'AWS::SSM::Parameter': { update: 300 } } });
    try {
      await env.cfn.send(
        new UpdateStackCommand({
          StackName: 'cancel',
          TemplateBody: template({ P: ssmParameter('/params/cancel', 'b') }),
        }),
      );
      await env.cfn.send(new CancelUpdateStackCommand({ StackName: 'cancel' }));
      expect((await settled(env.cfn, 'cancel')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    } finally {
      await admin(env.sandbox, 'PUT', 'latency', { types: {} });
    }
    expect(await valueOf('/params/cancel')).toBe('a');
    expect(await eventTrail(env.cfn, 'cancel')).toContain('cancel UPDATE_ROLLBACK_IN_PROGRESS');
    const late = await failure(env.cfn.send(new CancelUpdateStackCommand({ StackName: 'cancel' })));
    expect(late.error.message).toBe('CancelUpdateStack cannot be called from current stack status');
  });
});

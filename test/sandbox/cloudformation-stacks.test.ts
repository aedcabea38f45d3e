import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourceCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
  ValidateTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import {
  brokenParameter,
  eventsOf,
  eventTrail,
  settled,
  ssmParameter as parameter,
  template,
  useCloudFormation,
} from './cloudformation-helpers.js';
import { failure } from './helpers.js';

const env = useCloudFormation();

const valueOf = async (name: string) =>
  (await env.ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;

describe('CreateStack, UpdateStack, DeleteStack through the resource handlers', () => {
  it('creates in dependency order (Ref and DependsOn), reports outputs, events and resources', async () => {
    const body = template(
      {
        Second: parameter('/stacks/life/second', { 'Fn::Sub': '${First}-after' }),
        Third: parameter('/stacks/life/third', 'last', { DependsOn: 'Second' }),
        First: parameter('/stacks/life/first', 'one'),
      },
      { Outputs: { FirstName: { Value: { Ref: 'First' } } } },
    );
    const { StackId } = await env.cfn.send(new CreateStackCommand({ StackName: 'life', TemplateBody: body }));
    expect(StackId).toMatch(/^arn:aws:cloudformation:us-east-1:\d{12}:stack\/life\/[0-9a-f-]{36}$/);
    const stack = await settled(env.cfn, 'life');
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs).toEqual([
      expect.objectContaining({ OutputKey: 'FirstName', OutputValue: '/stacks/life/first' }),
    ]);
    expect(await valueOf('/stacks/life/second')).toBe('/stacks/life/first-after');

    const trail = await eventTrail(env.cfn, 'life');
    expect(trail[0]).toBe('life CREATE_IN_PROGRESS');
    expect(trail.at(-1)).toBe('life CREATE_COMPLETE');
    const completed = trail.filter((e) => e.endsWith(' CREATE_COMPLETE')).map((e) => e.split(' ')[0]);
    expect(completed).toEqual(['First', 'Second', 'Third', 'life']);
    const times = (await eventsOf(env.cfn, 'life')).map((e) => e.Timestamp!.getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(times).size).toBe(times.length);

    const resources = (await env.cfn.send(new ListStackResourcesCommand({ StackName: 'life' })))
      .StackResourceSummaries!;
    expect(
      resources.map((r) => [r.LogicalResourceId, r.PhysicalResourceId, r.ResourceStatus]).sort(),
    ).toEqual([
      ['First', '/stacks/life/first', 'CREATE_COMPLETE'],
      ['Second', '/stacks/life/second', 'CREATE_COMPLETE'],
      ['Third', '/stacks/life/third', 'CREATE_COMPLETE'],
    ]);
    const one = await env.cfn.send(
      new DescribeStackResourceCommand({ StackName: 'life', LogicalResourceId: 'First' }),
    );
    expect(one.StackResourceDetail?.ResourceType).toBe('AWS::SSM::Parameter');
    const byPhysical = await env.cfn.send(
      new DescribeStackResourcesCommand({ PhysicalResourceId: '/stacks/life/third' }),
    );
    expect(byPhysical.StackResources?.map((r) => r.LogicalResourceId)).toEqual(['Third']);
    expect(
      JSON.parse((await env.cfn.send(new GetTemplateCommand({ StackName: 'life' }))).TemplateBody!),
    ).toEqual(JSON.parse(body));
  });

  it('updates in place, and an unchanged template is refused with "No updates are to be performed."', async () => {
    const body = template(
      {
        First: parameter('/stacks/life/first', 'two'),
        Second: parameter('/stacks/life/second', { 'Fn::Sub': '${First}-after' }),
        Third: parameter('/stacks/life/third', 'last', { DependsOn: 'Second' }),
      },
      { Outputs: { FirstName: { Value: { Ref: 'First' } } } },
    );
    await env.cfn.send(new UpdateStackCommand({ StackName: 'life', TemplateBody: body }));
    expect((await settled(env.cfn, 'life')).StackStatus).toBe('UPDATE_COMPLETE');
    expect(await valueOf('/stacks/life/first')).toBe('two');
    const trail = await eventTrail(env.cfn, 'life');
    const update = trail.slice(trail.lastIndexOf('life UPDATE_IN_PROGRESS'));
    expect(update).toEqual([
      'life UPDATE_IN_PROGRESS',
      'First UPDATE_IN_PROGRESS',
      'First UPDATE_COMPLETE',
      'life UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
      'life UPDATE_COMPLETE',
    ]);

    const again = await failure(
      env.cfn.send(new UpdateStackCommand({ StackName: 'life', TemplateBody: body })),
    );
    expect(again.name).toBe('ValidationError');
    expect(again.error.message).toBe('No updates are to be performed.');
  });

  it('a resource that fails rolls the update back to the previous template and values', async () => {
    const body = template({
      First: parameter('/stacks/life/first', 'three'),
      Broken: brokenParameter('First'),
    });
    await env.cfn.send(new UpdateStackCommand({ StackName: 'life', TemplateBody: body }));
    const stack = await settled(env.cfn, 'life');
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await valueOf('/stacks/life/first')).toBe('two');
    const events = await eventsOf(env.cfn, 'life');
    const failed = events.find(
      (e) => e.LogicalResourceId === 'Broken' && e.ResourceStatus === 'CREATE_FAILED',
    );
    expect(failed?.ResourceStatusReason).toContain('SecureString');
    const template_ = JSON.parse(
      (await env.cfn.send(new GetTemplateCommand({ StackName: 'life' }))).TemplateBody!,
    );
    expect(Object.keys(template_.Resources).sort()).toEqual(['First', 'Second', 'Third']);
  });

  it('a failed create rolls back to ROLLBACK_COMPLETE; OnFailure DELETE removes the stack', async () => {
    const body = template({
      Good: parameter('/stacks/failing/good', 'v'),
      Bad: brokenParameter('Good'),
    });
    await env.cfn.send(new CreateStackCommand({ StackName: 'failing', TemplateBody: body }));
    expect((await settled(env.cfn, 'failing')).StackStatus).toBe('ROLLBACK_COMPLETE');
    const rollback = (await eventsOf(env.cfn, 'failing')).find(
      (e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS',
    );
    expect(rollback?.ResourceStatusReason).toBe(
      'The following resource(s) failed to create: [Bad]. Rollback requested by user.',
    );
    expect((await failure(valueOf('/stacks/failing/good'))).name).toBe('ParameterNotFound');
    const update = await failure(
      env.cfn.send(new UpdateStackCommand({ StackName: 'failing', TemplateBody: body })),
    );
    expect(update.error.message).toContain('ROLLBACK_COMPLETE state and can not be updated');
    await env.cfn.send(new DeleteStackCommand({ StackName: 'failing' }));
    await settled(env.cfn, 'failing').catch(() => undefined);

    await env.cfn.send(
      new CreateStackCommand({ StackName: 'failing-delete', TemplateBody: body, OnFailure: 'DELETE' }),
    );
    const gone = await failure(
      (async () => {
        for (;;) {
          await env.cfn.send(new DescribeStacksCommand({ StackName: 'failing-delete' }));
          await new Promise((done) => setTimeout(done, 20));
        }
      })(),
    );
    expect(gone.error.message).toBe('Stack with id failing-delete does not exist');
  });

  it('DisableRollback keeps what a failed create made (CREATE_FAILED)', async () => {
    const body = template({
      Good: parameter('/stacks/kept/good', 'v'),
      Bad: brokenParameter('Good'),
    });
    await env.cfn.send(
      new CreateStackCommand({ StackName: 'kept', TemplateBody: body, DisableRollback: true }),
    );
    expect((await settled(env.cfn, 'kept')).StackStatus).toBe('CREATE_FAILED');
    expect(await valueOf('/stacks/kept/good')).toBe('v');
    await env.cfn.send(new DeleteStackCommand({ StackName: 'kept' }));
    await settled(env.cfn, 'kept').catch(() => undefined);
    expect((await failure(valueOf('/stacks/kept/good'))).name).toBe('ParameterNotFound');
  });

  it('termination protection refuses DeleteStack; DeletionPolicy Retain keeps a resource; the stack is gone', async () => {
    const body = template({
      Kept: parameter('/stacks/del/kept', 'k', { DeletionPolicy: 'Retain' }),
      Dropped: parameter('/stacks/del/dropped', 'd'),
    });
    await env.cfn.send(
      new CreateStackCommand({ StackName: 'del', TemplateBody: body, EnableTerminationProtection: true }),
    );
    expect((await settled(env.cfn, 'del')).StackStatus).toBe('CREATE_COMPLETE');
    const refused = await failure(env.cfn.send(new DeleteStackCommand({ StackName: 'del' })));
    expect(refused.error.message).toBe(
      'Stack [del] cannot be deleted while TerminationProtection is enabled',
    );
    await env.cfn.send(
      new UpdateTerminationProtectionCommand({ StackName: 'del', EnableTerminationProtection: false }),
    );
    await env.cfn.send(new DeleteStackCommand({ StackName: 'del' }));
    const gone = await failure(settled(env.cfn, 'del'));
    expect(gone.name).toBe('ValidationError');
    expect(await valueOf('/stacks/del/kept')).toBe('k');
    expect((await failure(valueOf('/stacks/del/dropped'))).name).toBe('ParameterNotFound');
    const listed = (await env.cfn.send(new ListStacksCommand({ StackStatusFilter: ['DELETE_COMPLETE'] })))
      .StackSummaries;
    expect(listed?.map((s) => s.StackName)).toContain('del');
  });

  it('ValidateTemplate answers parameters and refuses a template with no Resources', async () => {
    const answer = await env.cfn.send(
      new ValidateTemplateCommand({
        TemplateBody: JSON.stringify({
          Parameters: { Stage: { Type: 'String', Default: 'dev', Description: 'the stage' } },
          Resources: { P: parameter('/v', { Ref: 'Stage' }) },
        }),
      }),
    );
    expect(answer.Parameters).toEqual([
      expect.objectContaining({ ParameterKey: 'Stage', DefaultValue: 'dev', Description: 'the stage' }),
    ]);
    const refused = await failure(
      env.cfn.send(new ValidateTemplateCommand({ TemplateBody: '{"Outputs":{}}' })),
    );
    expect(refused.name).toBe('ValidationError');
  });
});

describe('an in-place update of a resource whose name CloudFormation generated', () => {
  it('keeps the generated name in the resource model (Fn::GetAtt reads it after the update)', async () => {
    const body = (timeout: number) =>
      template(
        { Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: timeout } } },
        { Outputs: { Name: { Value: { 'Fn::GetAtt': ['Queue', 'QueueName'] } } } },
      );
    await env.cfn.send(new CreateStackCommand({ StackName: 'named', TemplateBody: body(30) }));
    const created = await settled(env.cfn, 'named');
    expect(created.StackStatus).toBe('CREATE_COMPLETE');
    const name = created.Outputs?.[0]?.OutputValue;
    expect(name).toMatch(/Queue-/);
    await env.cfn.send(new UpdateStackCommand({ StackName: 'named', TemplateBody: body(60) }));
    const updated = await settled(env.cfn, 'named');
    expect(updated.StackStatus).toBe('UPDATE_COMPLETE');
    expect(updated.Outputs?.[0]?.OutputValue).toBe(name);
    const trail = await eventTrail(env.cfn, 'named');
    expect(trail).not.toContain('Queue DELETE_COMPLETE');
  });
});

import { describe, expect, it } from 'vitest';
import type { DeployEvent } from '../../src/messages/index.js';
import {
  cloudFormationStatus,
  notificationMessage,
} from '../../src/toolkit/deploy/cloudformation-notification.js';

type Notified = Extract<DeployEvent, { kind: 'resource' } | { kind: 'stack' }>;
const resource = (action: string, status: string): Notified =>
  ({ kind: 'resource', stack: 'App', logicalId: 'Q', type: 'AWS::SQS::Queue', action, status }) as Notified;
const stack = (status: string): Notified => ({ kind: 'stack', stack: 'App', status }) as Notified;
const update = { firstDeploy: false, rollback: true };

describe('the ResourceStatus CloudFormation would send for a deploy event', () => {
  it.each([
    ['create started', resource('create', 'started'), update, 'CREATE_IN_PROGRESS'],
    ['create succeeded', resource('create', 'succeeded'), update, 'CREATE_COMPLETE'],
    ['create failed', resource('create', 'failed'), update, 'CREATE_FAILED'],
    ['update started', resource('update', 'started'), update, 'UPDATE_IN_PROGRESS'],
    [
      'replacement (an update to CloudFormation)',
      resource('replace', 'succeeded'),
      update,
      'UPDATE_COMPLETE',
    ],
    ['delete failed', resource('delete', 'failed'), update, 'DELETE_FAILED'],
    ['retained on delete', resource('retain', 'succeeded'), update, 'DELETE_SKIPPED'],
    ['no-op', resource('no-op', 'succeeded'), update, undefined],
    ['skipped step', resource('create', 'skipped'), update, undefined],
    ['first deploy starts', stack('started'), { firstDeploy: true, rollback: true }, 'CREATE_IN_PROGRESS'],
    ['update starts', stack('started'), update, 'UPDATE_IN_PROGRESS'],
    ['first deploy completes', stack('succeeded'), { firstDeploy: true, rollback: true }, 'CREATE_COMPLETE'],
    ['update completes', stack('succeeded'), update, 'UPDATE_COMPLETE'],
    ['no changes', stack('no-changes'), update, undefined],
    [
      'failed first deploy, rolled back',
      stack('failed'),
      { firstDeploy: true, rollback: true },
      'ROLLBACK_COMPLETE',
    ],
    ['failed update, rolled back', stack('failed'), update, 'UPDATE_ROLLBACK_COMPLETE'],
    [
      'failed first deploy, --no-rollback',
      stack('failed'),
      { firstDeploy: true, rollback: false },
      'CREATE_FAILED',
    ],
    [
      'failed update, --no-rollback',
      stack('failed'),
      { firstDeploy: false, rollback: false },
      'UPDATE_FAILED',
    ],
  ])('%s', (_row, event, context, expected) => {
    expect(cloudFormationStatus(event, context)).toBe(expected);
  });
});

describe("CloudFormation's notification message", () => {
  const context = {
    accountId: '123456789012',
    region: 'eu-west-1',
    eventId: 'e-1',
    timestamp: new Date('2026-12-05T10:00:00.000Z'),
  };

  it("names the resource, one Key='value' line per field in CloudFormation's order", () => {
    const event = { ...resource('create', 'succeeded'), physicalId: 'https://queue' } as Notified;
    expect(notificationMessage(event, 'CREATE_COMPLETE', context)).toBe(
      [
        "StackId='arn:aws:cloudformation:eu-west-1:123456789012:stack/App/cdkd'",
        "Timestamp='2026-12-05T10:00:00.000Z'",
        "EventId='e-1'",
        "LogicalResourceId='Q'",
        "Namespace='123456789012'",
        "PhysicalResourceId='https://queue'",
        "ResourceStatus='CREATE_COMPLETE'",
        "ResourceStatusReason=''",
        "ResourceType='AWS::SQS::Queue'",
        "StackName='App'",
        "ClientRequestToken='null'",
        '',
      ].join('\n'),
    );
  });

  it('names the stack as its own resource, with the reason a stack starts or a resource fails', () => {
    const started = notificationMessage(stack('started'), 'UPDATE_IN_PROGRESS', context);
    expect(started).toContain("LogicalResourceId='App'");
    expect(started).toContain("ResourceType='AWS::CloudFormation::Stack'");
    expect(started).toContain("ResourceStatusReason='User Initiated'");
    const failed = { ...resource('create', 'failed'), message: 'QueueAlreadyExists' } as Notified;
    expect(notificationMessage(failed, 'CREATE_FAILED', context)).toContain(
      "ResourceStatusReason='QueueAlreadyExists'",
    );
  });
});

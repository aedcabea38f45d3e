import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../src/errors.js';
import {
  createCollisionError,
  isOldResource,
  ownHolderOf,
  replacementOrder,
  type NameCheck,
  type ReplacementNameInput,
  recordedNameCheck,
} from '../../src/engine/planning/name-check.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';

function record(type: string, physicalId: string, properties: Record<string, unknown>): ResourceRecord {
  return {
    type,
    physicalId,
    properties,
    attributes: {},
    provisionedBy: 'sdk',
    dependencies: [],
  } as ResourceRecord;
}

const QUEUE = 'AWS::SQS::Queue';
const oldQueue = record(QUEUE, 'https://sqs/000/orders', { QueueName: 'orders' });

describe('a plain create that looked its name up (spec 002, "Creates that adopt a taken name")', () => {
  const held: NameCheck = { kind: 'held', name: 'orders', holder: 'https://sqs/000/orders' };
  it.each<[string, Parameters<typeof createCollisionError>[0], RegExp, RegExp | undefined]>([
    [
      'the error ends on the cdkd import <stack> --resource <logicalId>=<physicalId> command',
      { stackName: 'App', logicalId: 'Queue', type: QUEUE, check: held },
      /already holds its name orders.*cdkd import App --resource Queue=https:\/\/sqs\/000\/orders$/,
      /confirmed it is yours/,
    ],
    [
      'a holder id a shell would split or expand is single-quoted in the command',
      {
        stackName: 'App',
        logicalId: 'Async',
        type: 'AWS::Lambda::EventInvokeConfig',
        check: { kind: 'held', name: 'fn|$LATEST', holder: "it's-fn|$LATEST" },
      },
      /cdkd import App --resource 'Async=it'\\''s-fn\|\$LATEST'$/,
      /confirmed it is yours/,
    ],
    [
      "when the holder is this stack's own resource under another logical id, the error names that id",
      { stackName: 'App', logicalId: 'Queue', type: QUEUE, check: held, ownHolder: 'OldQueue' },
      /this stack's own OldQueue/,
      /deploy the removal of OldQueue first/,
    ],
    [
      'an S3 bucket gets no command',
      {
        stackName: 'App',
        logicalId: 'Bucket',
        type: 'AWS::S3::Bucket',
        check: { kind: 'held', name: 'b', holder: 'b' },
      },
      /in this account or another/,
      /another BucketName/,
    ],
    [
      'a lookup that cannot run fails the same way',
      {
        stackName: 'App',
        logicalId: 'Queue',
        type: QUEUE,
        check: { kind: 'failed', error: new Error('AccessDenied') },
      },
      /could not check whether its name is free \(AccessDenied\)/,
      undefined,
    ],
  ])('%s', (_row, input, message, hint) => {
    const error = createCollisionError(input);
    expect(error.code).toBe('NAMED_CREATE_COLLISION');
    expect(error.message).toMatch(message);
    if (hint) expect(error.hint).toMatch(hint);
    if (input.type === 'AWS::S3::Bucket' || input.ownHolder) {
      expect(`${error.message} ${error.hint}`).not.toContain('cdkd import');
    }
  });

  it('finds the own holder by type and physical id, never the resource itself', () => {
    const resources = { Queue: oldQueue, Topic: record('AWS::SNS::Topic', oldQueue.physicalId, {}) };
    expect(ownHolderOf(resources, 'New', QUEUE, oldQueue.physicalId)).toBe('Queue');
    expect(ownHolderOf(resources, 'Queue', QUEUE, oldQueue.physicalId)).toBeUndefined();
    expect(ownHolderOf(resources, 'New', 'AWS::SNS::Topic', 'other')).toBeUndefined();
  });
});

describe('a replacement that looked its new name up (How --replace proves the old resource holds the name)', () => {
  const base: ReplacementNameInput = {
    logicalId: 'Queue',
    type: QUEUE,
    properties: { QueueName: 'orders' },
    old: oldQueue,
    check: { kind: 'held', name: 'orders', holder: oldQueue.physicalId },
    replace: true,
  };
  it.each<[string, Partial<ReplacementNameInput>, 'create-first' | 'delete-first' | [string, boolean]]>([
    ['a name nobody holds: create first', { check: { kind: 'free', name: 'orders' } }, 'create-first'],
    ['a generated name is not looked up: create first', { check: { kind: 'not-looked-up' } }, 'create-first'],
    ['--replace, the old resource proven to hold the name: deleted first', {}, 'delete-first'],
    [
      'without --replace: refused, advising --replace',
      { replace: false },
      ['NAMED_REPLACEMENT_COLLISION', true],
    ],
    [
      'another resource holds the name: refused without advising --replace',
      { check: { kind: 'held', name: 'orders', holder: 'https://sqs/000/someone' } },
      ['NAMED_REPLACEMENT_COLLISION', false],
    ],
    [
      "the old resource's state record and its last read-back name it differently: refused",
      { old: { ...oldQueue, observedProperties: { QueueName: 'renamed-outside' } } },
      ['NAMED_REPLACEMENT_COLLISION', false],
    ],
    [
      'an EventBridge rule on another bus is not the old rule',
      {
        type: 'AWS::Events::Rule',
        properties: { Name: 'r', EventBusName: 'other' },
        old: record('AWS::Events::Rule', 'arn:rule/r', { Name: 'r' }),
        check: { kind: 'held', name: 'r', holder: 'arn:rule/r' },
      },
      ['NAMED_REPLACEMENT_COLLISION', false],
    ],
    [
      'a Cloud Control type cdkd knows the name of (an ECS cluster): proven, deleted first',
      {
        type: 'AWS::ECS::Cluster',
        properties: { ClusterName: 'c' },
        old: record('AWS::ECS::Cluster', 'c', { ClusterName: 'c' }),
        check: { kind: 'held', name: 'c', holder: 'c' },
      },
      'delete-first',
    ],
    [
      'UpdateReplacePolicy: Retain fails regardless of --replace',
      { updateReplacePolicy: 'Retain' },
      ['NAMED_REPLACEMENT_COLLISION', false],
    ],
    [
      'a lookup that cannot run fails the same way',
      { check: { kind: 'failed', error: new Error('throttled') } },
      ['NAMED_REPLACEMENT_COLLISION', false],
    ],
  ])('%s', (_row, overrides, expected) => {
    const run = () => replacementOrder({ ...base, ...overrides });
    if (typeof expected === 'string') {
      expect(run()).toBe(expected);
      return;
    }
    const [code, adviseReplace] = expected;
    let error: unknown;
    try {
      run();
    } catch (caught) {
      error = caught;
    }
    expect(isCdkdError(error) && error.code).toBe(code);
    const hint = isCdkdError(error) ? (error.hint ?? '') : '';
    expect(hint.includes('--replace')).toBe(adviseReplace);
  });
});

describe('Equal physical ids across a type change', () => {
  const glue = (database: string) => record('AWS::Glue::Table', 'my|db|orders', { DatabaseName: database });
  it.each<[string, ResourceRecord, ResourceRecord, boolean]>([
    ['different ids are two resources', oldQueue, { ...oldQueue, physicalId: 'other' }, false],
    [
      'two equal ids across two types are two resources (an SSM parameter and a log group)',
      record('AWS::SSM::Parameter', 'shared', {}),
      record('AWS::Logs::LogGroup', 'shared', {}),
      false,
    ],
    [
      'between two custom resource types an equal id is the existing resource',
      record('Custom::A', 'id-1', {}),
      record('AWS::CloudFormation::CustomResource', 'id-1', {}),
      true,
    ],
    ['within one type an equal id is the same resource', oldQueue, { ...oldQueue }, true],
    [
      'two Glue tables in different databases sharing an id through | are two tables',
      glue('my'),
      glue('my|db'),
      false,
    ],
    ['a Glue table in the same database (case folded) is the same table', glue('my'), glue('MY'), true],
  ])('%s', (_row, old, made, expected) => {
    expect(isOldResource(old, made)).toBe(expected);
  });
});

describe('a replacement of a type whose name is not looked up: the record proves the holder', () => {
  const fn = record('AWS::Lambda::Function', 'kept-fn', { FunctionName: 'kept-fn' });
  it.each<[string, string, Record<string, unknown>, ReturnType<typeof recordedNameCheck>]>([
    [
      'the same explicit name: held by the resource being replaced',
      'AWS::Lambda::Function',
      { FunctionName: 'kept-fn' },
      { kind: 'held', name: 'kept-fn', holder: 'kept-fn' },
    ],
    [
      'another name: nothing to look up',
      'AWS::Lambda::Function',
      { FunctionName: 'new-fn' },
      { kind: 'not-looked-up' },
    ],
    [
      'a generated name (none sent): nothing to look up',
      'AWS::Lambda::Function',
      {},
      { kind: 'not-looked-up' },
    ],
    [
      'another type with an equal name: two resources',
      'AWS::SSM::Parameter',
      { Name: 'kept-fn' },
      { kind: 'not-looked-up' },
    ],
  ])('%s', (_title, type, sent, expected) => {
    expect(recordedNameCheck(type, sent, fn)).toEqual(expected);
  });
});

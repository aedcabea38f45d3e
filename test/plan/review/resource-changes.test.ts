import { describe, expect, it } from 'vitest';
import {
  buildPlan,
  renderPlanText,
  resourceChanges,
  type ReplacementCause,
  type StackValues,
} from '../../../src/plan/index.js';
import { explain } from '../../../src/plan/review/resource-changes.js';
import { allProviders, desired, recorded } from '../helpers.js';

describe('resourceChanges', () => {
  it('names the property forcing a replacement, marks its row, and carries the data-loss verdict', () => {
    const old = { BucketName: 'logs-1', Tags: [{ Key: 'team', Value: 'a' }] };
    const now = { BucketName: 'logs-2', Tags: [{ Key: 'team', Value: 'b' }] };
    const plan = buildPlan(
      {
        desired: [desired('Logs', 'AWS::S3::Bucket', now)],
        recorded: { Logs: recorded('AWS::S3::Bucket', old) },
      },
      allProviders,
    );
    const values: StackValues = { Logs: { type: 'AWS::S3::Bucket', old, new: now } };
    const [change] = resourceChanges(plan, values, {
      stateful: [{ logicalId: 'Logs', type: 'AWS::S3::Bucket', outcome: 'data-loss', readerOf: [] }],
    });
    expect(change).toMatchObject({
      logicalId: 'Logs',
      kind: 'replace',
      dataLoss: 'data-loss',
      replacement: [{ property: 'BucketName', why: 'name-change' }],
      properties: [
        { path: ['BucketName'], kind: 'changed', old: 'logs-1', new: 'logs-2', forcesReplacement: true },
        { path: ['Tags', 0, 'Value'], kind: 'changed', old: 'a', new: 'b' },
      ],
    });
    expect(change!.replacement[0]!.text).toMatch(/^BucketName is create-only per .+: a name change$/);
    const text = renderPlanText(plan, { changes: [change!] });
    expect(text).toContain('    replaced because BucketName is create-only');
    expect(text).toContain(
      '    ~ BucketName: "logs-1" → "logs-2" (forces replacement)\n    ~ Tags[0].Value: "a" → "b"\n',
    );
  });

  it('a masked property the plan counts as changed gets a masked row even when both sides read ***', () => {
    const old = { Name: 'p', Value: '***' };
    const plan = buildPlan(
      {
        desired: [desired('Secret', 'AWS::SSM::Parameter', { Name: 'p', Value: 'new-secret' })],
        recorded: { Secret: recorded('AWS::SSM::Parameter', old) },
      },
      allProviders,
    );
    const [change] = resourceChanges(plan, { Secret: { type: 'AWS::SSM::Parameter', old, new: old } });
    expect(change!.properties).toEqual([
      { path: ['Value'], kind: 'changed', old: '***', new: '***', masked: true },
    ]);
    expect(JSON.stringify(change)).not.toContain('new-secret');
  });

  it('a create shows every property added; a no-op is left out', () => {
    const plan = buildPlan(
      {
        desired: [
          desired('Queue', 'AWS::SQS::Queue', { DelaySeconds: 5 }),
          desired('Same', 'AWS::SNS::Topic', {}),
        ],
        recorded: { Same: recorded('AWS::SNS::Topic', {}) },
      },
      allProviders,
    );
    const changes = resourceChanges(plan, { Queue: { type: 'AWS::SQS::Queue', new: { DelaySeconds: 5 } } });
    expect(changes).toEqual([
      {
        logicalId: 'Queue',
        kind: 'create',
        type: 'AWS::SQS::Queue',
        replacement: [],
        properties: [{ path: ['DelaySeconds'], kind: 'added', new: 5 }],
      },
    ]);
  });
});

describe('explain', () => {
  const CASES: Array<[ReplacementCause, { why: string; text: string }]> = [
    [
      { kind: 'type-change', from: 'AWS::SQS::Queue', to: 'AWS::SNS::Topic' },
      { why: 'type-change', text: 'the type changes from AWS::SQS::Queue to AWS::SNS::Topic' },
    ],
    [
      { kind: 'property', property: 'Engine', source: 'registry' },
      { why: 'create-only', text: 'Engine is create-only per the CloudFormation registry schema' },
    ],
    [
      { kind: 'property', property: 'TableName', source: 'bundled' },
      { why: 'name-change', text: 'TableName is create-only per the bundled resource schema: a name change' },
    ],
    [
      { kind: 'nested-property', property: 'KeySchema', path: 'AttributeName', source: 'cdkd' },
      {
        why: 'name-change',
        text: "KeySchema.AttributeName is create-only per cdkd's own rule for the type: a name change",
      },
    ],
    [
      { kind: 'no-provider-update', properties: ['Code', 'Layers'] },
      { why: 'no-in-place-update', text: 'Code, Layers cannot be updated in place by its provider' },
    ],
  ];
  it.each(CASES)('%o', (cause, expected) => {
    expect(explain(cause)).toMatchObject(expected);
  });
});

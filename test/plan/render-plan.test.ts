import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { checkStatefulReplacements } from '../../src/plan/guards/stateful-replace.js';
import { renderPlanJson, renderPlanText } from '../../src/plan/render-plan.js';
import { allProviders, desired, recorded } from './helpers.js';

const plan = buildPlan(
  {
    desired: [
      desired('New', 'AWS::SNS::Topic'),
      desired('Queue', 'AWS::SQS::Queue', { VisibilityTimeout: 60 }),
      desired('Table', 'AWS::DynamoDB::Table', { TableName: 'b' }),
      desired('Same', 'AWS::SQS::Queue', { A: 1 }),
    ],
    recorded: {
      Queue: recorded('AWS::SQS::Queue', { VisibilityTimeout: 30 }),
      Table: recorded('AWS::DynamoDB::Table', { TableName: 'a' }),
      Same: recorded('AWS::SQS::Queue', { A: 1 }),
      Old: recorded('AWS::SNS::Topic'),
    },
  },
  allProviders,
);

describe('cdkd diff output', () => {
  it('prints one line per resource: + create, ~ update, -/+ replace, - delete, with reasons', () => {
    expect(renderPlanText(plan)).toBe(
      [
        '+   New (AWS::SNS::Topic): new in the template',
        '~   Queue (AWS::SQS::Queue): changed: VisibilityTimeout',
        '-/+ Table (AWS::DynamoDB::Table): changed: TableName; TableName requires replacement (schema)',
        '-   Old (AWS::SNS::Topic): removed from the template',
        '1 to create, 1 to update, 1 to replace, 1 to delete, 1 unchanged',
        '',
      ].join('\n'),
    );
  });

  it('shows the move of a --recreate-via-* row, as the confirmation prompt does', () => {
    const recreated = buildPlan(
      {
        desired: [desired('Same', 'AWS::SQS::Queue', { A: 1 })],
        recorded: { Same: { ...recorded('AWS::SQS::Queue', { A: 1 }), provisionedBy: 'sdk' } },
        recreateVia: { Same: 'cc-api' },
      },
      allProviders,
    );
    expect(renderPlanText(recreated)).toContain(
      '-/+ Same (AWS::SQS::Queue) [SDK → CC]: re-created via Cloud Control (--recreate-via-cc-api)',
    );
  });

  it('lists unchanged resources on request', () => {
    expect(renderPlanText(plan, { showUnchanged: true })).toContain(
      '=   Same (AWS::SQS::Queue): unchanged (same property hash)',
    );
  });

  it('marks a stateful replacement allowed by --force-stateful-recreation as DATA LOSS', () => {
    const stateful = checkStatefulReplacements({
      operations: plan.operations,
      recorded: {},
      forceStatefulRecreation: true,
    });
    const text = renderPlanText(plan, { stateful });
    expect(text).toContain('-/+ **DATA LOSS** Table (AWS::DynamoDB::Table)');
    expect(text).toContain('    DATA: all data in Table will be lost (no automatic data migration)');
  });

  it('says when a bucket emptiness was NOT established', () => {
    const bucketPlan = buildPlan(
      {
        desired: [desired('Bucket', 'AWS::S3::Bucket', { BucketName: 'n2' })],
        recorded: { Bucket: recorded('AWS::S3::Bucket', { BucketName: 'n1' }) },
      },
      allProviders,
    );
    const stateful = checkStatefulReplacements({
      operations: bucketPlan.operations,
      recorded: {},
      forceStatefulRecreation: false,
      emptiness: { Bucket: 'probe-failed' },
    });
    const text = renderPlanText(bucketPlan, { stateful });
    expect(text).toContain(
      '    emptiness NOT established: the live probe failed, so cdkd does not know whether this resource holds data\n' +
        '    UNKNOWN: if Bucket holds data, the destroy + recreate loses it (no automatic data migration)',
    );
    expect(text).not.toContain('DATA LOSS');
  });

  it('prints the JSON form with a summary and the operations', () => {
    const parsed = JSON.parse(renderPlanJson(plan)) as {
      summary: Record<string, number>;
      operations: unknown[];
    };
    expect(parsed.summary).toEqual({ create: 1, update: 1, replace: 1, delete: 1, 'no-op': 1 });
    expect(parsed.operations).toEqual(plan.operations);
  });
});

import { describe, expect, it } from 'vitest';
import {
  needsDataLossConfirmation,
  recreateRowLines,
  renderDataLossPlan,
  type RecreateRow,
} from '../../src/plan/render-data-loss.js';

describe("the recreate prompt's three display states (spec 002)", () => {
  it.each<[string, RecreateRow, string[]]>([
    [
      'a stateful target reached through --force-stateful-recreation: **DATA LOSS** prefix and a DATA line',
      {
        logicalId: 'Table',
        type: 'AWS::DynamoDB::Table',
        outcome: 'data-loss',
        reason: 'changed: TableName',
      },
      [
        '    - **DATA LOSS** Table (AWS::DynamoDB::Table) — changed: TableName',
        '      DATA: all data in Table will be lost (no automatic data migration)',
      ],
    ],
    [
      'a conditionally stateful type under the flag (no probe ran) gets the prefix too',
      {
        logicalId: 'MyBucket',
        type: 'AWS::S3::Bucket',
        outcome: 'data-loss',
        reason: 'changed: BucketName',
        route: 'SDK → CC',
      },
      [
        '    - **DATA LOSS** MyBucket (AWS::S3::Bucket) [SDK → CC] — changed: BucketName',
        '      DATA: all data in MyBucket will be lost (no automatic data migration)',
      ],
    ],
    [
      'a bucket whose emptiness probe ran and failed: no prefix, the UNKNOWN row',
      {
        logicalId: 'MyBucket',
        type: 'AWS::S3::Bucket',
        outcome: 'emptiness-unknown',
        reason: 'changed: BucketName',
        route: 'SDK → CC',
      },
      [
        '    - MyBucket (AWS::S3::Bucket) [SDK → CC] — emptiness NOT established: the live probe failed, so cdkd does not know whether this resource holds data',
        '      UNKNOWN: if MyBucket holds data, the destroy + recreate loses it (no automatic data migration)',
      ],
    ],
    [
      'a bucket measured empty (or reported not existing) passes through silently',
      { logicalId: 'Empty', type: 'AWS::S3::Bucket', outcome: 'allowed', reason: 'changed: BucketName' },
      ['    - Empty (AWS::S3::Bucket) — changed: BucketName'],
    ],
    [
      'a target under UpdateReplacePolicy: Retain is listed without a data line',
      { logicalId: 'Kept', type: 'AWS::DynamoDB::Table', outcome: 'retained', reason: 'changed: TableName' },
      ['    - Kept (AWS::DynamoDB::Table) — changed: TableName'],
    ],
  ])('%s', (_name, row, lines) => {
    expect(recreateRowLines(row)).toEqual(lines);
  });

  it.each<[string, RecreateRow['outcome'][], boolean]>([
    ['a DATA LOSS row asks', ['allowed', 'data-loss'], true],
    ['an UNKNOWN row alone does not ask: the S3 probe fails open', ['emptiness-unknown'], false],
    ['measured-empty and retained rows do not ask', ['allowed', 'retained'], false],
  ])('%s', (_name, outcomes, asks) => {
    const rows = outcomes.map((outcome, i) => ({
      logicalId: `R${i}`,
      type: 'AWS::S3::Bucket',
      outcome,
      reason: 'x',
    }));
    expect(needsDataLossConfirmation(rows)).toBe(asks);
  });

  it('prints the stack, then every recreated resource', () => {
    expect(
      renderDataLossPlan('Shop', [
        {
          logicalId: 'Table',
          type: 'AWS::DynamoDB::Table',
          outcome: 'data-loss',
          reason: 'changed: TableName',
        },
      ]),
    ).toBe(
      [
        'Shop: this deploy destroys and recreates these resources:',
        '    - **DATA LOSS** Table (AWS::DynamoDB::Table) — changed: TableName',
        '      DATA: all data in Table will be lost (no automatic data migration)',
        '',
      ].join('\n'),
    );
  });

  it('lists the readers of a recreated target under "Replaced if the id changes", with DATA LOSS on a stateful one', () => {
    expect(
      renderDataLossPlan('Shop', [
        {
          logicalId: 'Sg',
          type: 'AWS::EC2::SecurityGroup',
          outcome: 'allowed',
          reason: 'changed: GroupDescription',
        },
        {
          logicalId: 'Db',
          type: 'AWS::RDS::DBInstance',
          outcome: 'data-loss',
          reason: 'replaced if the id of Sg changes',
          readerOf: ['Sg'],
        },
      ]),
    ).toBe(
      [
        'Shop: this deploy destroys and recreates these resources:',
        '    - Sg (AWS::EC2::SecurityGroup) — changed: GroupDescription',
        '  Replaced if the id changes:',
        '    - **DATA LOSS** Db (AWS::RDS::DBInstance) — replaced if the id of Sg changes',
        '      DATA: all data in Db will be lost (no automatic data migration)',
        '',
      ].join('\n'),
    );
  });
});

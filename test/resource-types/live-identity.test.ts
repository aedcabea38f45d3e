import { describe, expect, it } from 'vitest';
import { liveIdentityComparedOnCloudControl, liveIdentityRuleOf } from '../../src/resource-types/index.js';

describe('live identity rules in the catalog', () => {
  it.each([
    ['AWS::S3::Bucket', 'distinct-ids', true],
    ['AWS::DynamoDB::Table', { key: 'TableId' }, false],
    ['AWS::DocDB::DBCluster', { key: 'ClusterResourceId', engine: 'docdb' }, true],
    ['AWS::SQS::Queue', undefined, true],
    ['toString', undefined, true],
  ])('%s: compared by %j, on Cloud Control too: %s', (type, rule, onCloudControl) => {
    expect(liveIdentityRuleOf(type)).toEqual(rule);
    expect(liveIdentityComparedOnCloudControl(type)).toBe(onCloudControl);
  });
});

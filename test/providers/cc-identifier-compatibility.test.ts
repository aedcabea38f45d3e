import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { ccIdentifierCompatibleTypes } from '../../src/providers/cc-identifier-compatibility.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { JsonObject, ProviderContext } from '../../src/providers/provider.js';
import { defaultRegistry } from '../../src/toolkit/session/provider-wiring.js';
import { defaultVpc } from '../../src/sandbox/account/default-vpc.js';
import { useSandbox } from '../helpers/sandbox.js';
import { functionProperties, ROLE } from './lambda-helpers.js';

// The admission bar of cc-identifier-compatibility.ts, measured per type: a resource its SDK
// provider made is read and updated through Cloud Control by the physical id the SDK provider
// returned, and the update reads back. A type listed without a case here fails the first test.
useSandbox();
const context: ProviderContext = {
  clients: new AwsClients({ region: 'us-east-1' }),
  accountId: '000000000000',
  region: 'us-east-1',
  stackName: 'CcIds',
};
const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

/** What the SDK provider creates, and what Cloud Control then adds (a property the SDK provider drops where the type has one). */
const CASES: Record<string, { create: JsonObject; add: JsonObject }> = {
  'AWS::CloudWatch::Alarm': {
    create: {
      AlarmName: 'cc-ids-alarm',
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Statistic: 'Sum',
      Period: 60,
      EvaluationPeriods: 1,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    },
    add: { AlarmDescription: 'through Cloud Control' },
  },
  'AWS::S3::Bucket': {
    create: { BucketName: 'cc-ids-bucket' },
    add: { AccelerateConfiguration: { AccelerationStatus: 'Enabled' } },
  },
  'AWS::SSM::Parameter': {
    create: { Name: 'cc-ids-parameter', Type: 'String', Value: 'v' },
    add: { Description: 'through Cloud Control' },
  },
  'AWS::IAM::Role': {
    create: { RoleName: 'cc-ids-role', AssumeRolePolicyDocument: TRUST },
    add: { Description: 'through Cloud Control' },
  },
  'AWS::EC2::Subnet': {
    create: {
      VpcId: defaultVpc('000000000000', 'us-east-1').vpcId,
      CidrBlock: '172.31.200.0/24',
      AvailabilityZone: 'us-east-1a',
    },
    add: { AvailabilityZoneId: 'use1-az1', EnableDns64: false },
  },
  'AWS::Lambda::Function': {
    create: functionProperties({ FunctionName: 'cc-ids-function' }),
    add: { RuntimeManagementConfig: { UpdateRuntimeOn: 'FunctionUpdate' } },
  },
};

beforeAll(async () => {
  const iam = await context.clients.client(IAMClient, 'us-east-1');
  await iam.send(
    new CreateRoleCommand({
      RoleName: ROLE.split('/').pop()!,
      AssumeRolePolicyDocument: JSON.stringify(TRUST),
    }),
  );
});

describe('the SDK physical id is the Cloud Control identifier', () => {
  it('every listed type has a case here', () => {
    expect(Object.keys(CASES).sort()).toEqual([...ccIdentifierCompatibleTypes()].sort());
  });

  it.each(Object.entries(CASES))('%s', async (type, { create, add }) => {
    const registry = defaultRegistry();
    await registry.load([type]);
    const sdk = registry.providerFor(type, 'sdk');
    const cc = new CloudControlProvider();
    const made = await sdk.create({ logicalId: 'Made', type, properties: create }, context);
    const addressed = { logicalId: 'Made', type, physicalId: made.physicalId, properties: create };
    expect(await cc.read(addressed, context)).toBeDefined();

    const desired = { ...create, ...add };
    const updated = await cc.update(
      { ...addressed, properties: desired, previousProperties: create },
      context,
    );
    expect(updated.physicalId).toBe(made.physicalId);
    expect((await cc.read(addressed, context))?.properties).toMatchObject(add);
    // The SDK provider still finds the resource it made under the same id.
    expect(await sdk.read(addressed, context)).toBeDefined();
  });
});

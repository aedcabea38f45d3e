import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { RestApiProvider } from '../../src/providers/apigateway/rest-api.js';
import { AlarmProvider } from '../../src/providers/cloudwatch/alarm.js';
import { SubnetProvider } from '../../src/providers/ec2/subnet.js';
import { EventBusProvider } from '../../src/providers/events/event-bus.js';
import { RuleProvider } from '../../src/providers/events/rule.js';
import { AliasProvider } from '../../src/providers/kms/alias.js';
import type { Provider, ProviderContext } from '../../src/providers/provider.js';
import { BucketPolicyProvider } from '../../src/providers/s3/bucket-policy.js';
import { BucketProvider } from '../../src/providers/s3/bucket.js';
import { SecretProvider } from '../../src/providers/secretsmanager/secret.js';
import { ParameterProvider } from '../../src/providers/ssm/parameter.js';
import { useSandbox } from '../helpers/sandbox.js';
import { clearFaults, failNext } from './made-helpers.js';

const sandbox = useSandbox();
let context: ProviderContext;

beforeAll(() => {
  context = {
    clients: new AwsClients({ region: 'us-east-1' }),
    accountId: '000000000000',
    region: 'us-east-1',
    stackName: 'GoneStack',
  };
});
afterEach(() => clearFaults(sandbox.current));

/**
 * Each provider whose delete takes its service's not-found answer as "already gone". The sandbox
 * answers a missing resource's delete as AWS does; where that is a success (DeleteEventBus), the
 * not-found code is injected.
 */
const cases: Array<[string, Provider, string, string, string, string?]> = [
  ['AWS::EC2::Subnet', new SubnetProvider(), 'subnet-0123456789abcdef0', 'ec2', 'DeleteSubnet'],
  ['AWS::CloudWatch::Alarm', new AlarmProvider(), 'no-such-alarm', 'monitoring', 'DeleteAlarms'],
  ['AWS::KMS::Alias', new AliasProvider(), 'alias/no-such-alias', 'kms', 'DeleteAlias'],
  [
    'AWS::Events::EventBus',
    new EventBusProvider(),
    'no-such-bus',
    'events',
    'DeleteEventBus',
    'ResourceNotFoundException',
  ],
  [
    'AWS::Events::Rule',
    new RuleProvider(),
    'arn:aws:events:us-east-1:000000000000:rule/no-such-rule',
    'events',
    'ListTargetsByRule',
  ],
  ['AWS::SecretsManager::Secret', new SecretProvider(), 'no-such-secret', 'secretsmanager', 'DeleteSecret'],
  ['AWS::SSM::Parameter', new ParameterProvider(), 'no-such-parameter', 'ssm', 'DeleteParameter'],
  ['AWS::S3::Bucket', new BucketProvider(), 'no-such-bucket-gone', 's3', 'DeleteBucket'],
  ['AWS::S3::BucketPolicy', new BucketPolicyProvider(), 'no-such-bucket-gone', 's3', 'DeleteBucketPolicy'],
  ['AWS::ApiGateway::RestApi', new RestApiProvider(), 'abcdefghij', 'apigateway', 'DeleteRestApi'],
];

describe.each(cases)('%s delete', (type, provider, physicalId, service, operation, notFound) => {
  const request = { logicalId: 'Gone', type, physicalId, properties: {} };

  it('of a resource already gone succeeds', async () => {
    if (notFound) await failNext(sandbox.current, service, operation, { errorCode: notFound });
    await expect(provider.delete(request, context)).resolves.toBeUndefined();
  });

  it('raises any other error', async () => {
    await failNext(sandbox.current, service, operation, { errorCode: 'AccessDeniedException' });
    await expect(provider.delete(request, context)).rejects.toThrow(`injected ${operation} failure`);
  });
});

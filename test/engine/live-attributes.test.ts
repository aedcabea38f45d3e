import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { LiveAttributes, LIVE_ATTRIBUTE_UNRESOLVED } from '../../src/engine/planning/live-attributes.js';
import type {
  LiveAttributeAnswer,
  LiveAttributeReader,
  LiveAttributeRequest,
} from '../../src/providers/live-attributes/index.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import type { ExternalResolver } from '../../src/template/index.js';

function record(type: string, physicalId: string, attributes: Record<string, unknown> = {}): ResourceRecord {
  return { type, physicalId, properties: {}, attributes, provisionedBy: 'cc-api', dependencies: [] };
}

const records: Record<string, ResourceRecord> = {
  Web: record('AWS::EC2::Instance', 'i-0abc', { AvailabilityZone: 'us-east-1a' }),
  Group: record('AWS::EC2::SecurityGroup', 'sg-0abc', { VpcId: '', GroupId: 'sg-0abc' }),
  Proxy: record('AWS::RDS::DBProxy', 'proxy-1'),
  Queue: record('AWS::SQS::Queue', 'https://q', { Arn: 'arn:q' }),
};
const state = { record: (id: string) => records[id] };

const base: ExternalResolver = {
  ref: (id) => records[id]!.physicalId,
  getAtt: (id, attribute) => {
    const value = records[id]?.attributes[attribute];
    if (value === undefined) throw new Error(`base: ${id}.${attribute} not recorded`);
    return value;
  },
  importValue: () => undefined,
};

function reader(answers: Record<string, LiveAttributeAnswer>): LiveAttributeReader & {
  calls: Array<{ request: LiveAttributeRequest; wait: boolean }>;
} {
  const calls: Array<{ request: LiveAttributeRequest; wait: boolean }> = [];
  return {
    calls,
    read: async (request, options) => {
      calls.push({ request, wait: options.wait });
      return answers[`${request.logicalId}.${request.attribute}`]!;
    },
  };
}

const live = (fake: LiveAttributeReader | undefined, wait = true) =>
  new LiveAttributes({ state, region: 'us-east-1', ...(fake ? { reader: fake } : {}), wait });

async function refusal(promise: Promise<unknown>): Promise<CdkdError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CdkdError);
  expect((error as CdkdError).code).toBe(LIVE_ATTRIBUTE_UNRESOLVED);
  return error as CdkdError;
}

describe('LiveAttributes', () => {
  it('reads an attribute the record lacks and resolves with it, never the physical id', async () => {
    const fake = reader({ 'Web.PrivateIp': { kind: 'value', value: '10.0.0.7' } });
    const value = await live(fake).evaluate(base, (r) => `${String(r.getAtt('Web', 'PrivateIp'))}/32`);
    expect(value).toBe('10.0.0.7/32');
    expect(fake.calls).toEqual([
      {
        request: {
          logicalId: 'Web',
          type: 'AWS::EC2::Instance',
          physicalId: 'i-0abc',
          attribute: 'PrivateIp',
          region: 'us-east-1',
        },
        wait: true,
      },
    ]);
  });

  it('answers a recorded attribute from the record without a read', async () => {
    const fake = reader({});
    expect(await live(fake).evaluate(base, (r) => r.getAtt('Web', 'AvailabilityZone'))).toBe('us-east-1a');
    expect(await live(fake).evaluate(base, (r) => r.getAtt('Queue', 'Arn'))).toBe('arn:q');
    expect(fake.calls).toEqual([]);
  });

  it("re-reads a security group's VpcId recorded as '' (the default VPC's id)", async () => {
    const fake = reader({ 'Group.VpcId': { kind: 'value', value: 'vpc-default' } });
    expect(await live(fake).evaluate(base, (r) => r.getAtt('Group', 'VpcId'))).toBe('vpc-default');
    expect(records.Group!.attributes.VpcId).toBe('');
  });

  it('caches nothing: each evaluation reads again', async () => {
    const fake = reader({ 'Web.PrivateIp': { kind: 'value', value: '10.0.0.7' } });
    const attributes = live(fake);
    await attributes.evaluate(base, (r) => r.getAtt('Web', 'PrivateIp'));
    await attributes.evaluate(base, (r) => r.getAtt('Web', 'PrivateIp'));
    expect(fake.calls).toHaveLength(2);
  });

  it('reads each attribute once within one evaluation, however often it is referenced', async () => {
    const fake = reader({
      'Web.PrivateIp': { kind: 'value', value: '10.0.0.7' },
      'Web.PublicIp': { kind: 'value', value: '54.1.2.3' },
    });
    const value = await live(fake).evaluate(base, (r) => [
      r.getAtt('Web', 'PrivateIp'),
      r.getAtt('Web', 'PublicIp'),
      r.getAtt('Web', 'PrivateIp'),
    ]);
    expect(value).toEqual(['10.0.0.7', '54.1.2.3', '10.0.0.7']);
    expect(fake.calls.map((call) => call.request.attribute)).toEqual(['PrivateIp', 'PublicIp']);
  });

  it('refuses a pending instance under --no-wait, naming the resource, attribute, state and remedy', async () => {
    const fake = reader({ 'Web.PublicIp': { kind: 'unassigned', observed: 'pending', pending: true } });
    const error = await refusal(live(fake, false).evaluate(base, (r) => r.getAtt('Web', 'PublicIp')));
    expect(fake.calls[0]!.wait).toBe(false);
    expect(error.message).toContain('Web.PublicIp');
    expect(error.message).toContain('AWS::EC2::Instance i-0abc is pending');
    expect(error.hint).toContain('without --no-wait');
  });

  it('refuses an instance that runs without the attribute, with a remedy other than waiting', async () => {
    const fake = reader({ 'Web.PublicIp': { kind: 'unassigned', observed: 'running without one' } });
    const error = await refusal(live(fake).evaluate(base, (r) => r.getAtt('Web', 'PublicIp')));
    expect(error.message).toContain('is running without one');
    expect(error.hint).not.toContain('--no-wait');
  });

  it('refuses a failed read with the error class, the AWS error kept as the cause for --verbose', async () => {
    const cause = Object.assign(new Error('You are not authorized to perform this operation.'), {
      name: 'UnauthorizedOperation',
    });
    const fake = reader({
      'Web.PrivateDnsName': {
        kind: 'failed',
        operation: 'ec2:DescribeInstances',
        errorClass: 'UnauthorizedOperation',
        cause,
      },
    });
    const error = await refusal(live(fake).evaluate(base, (r) => r.getAtt('Web', 'PrivateDnsName')));
    expect(error.message).toContain('(ec2:DescribeInstances: UnauthorizedOperation)');
    expect(error.message).not.toContain('not authorized');
    expect(error.cause).toBe(cause);
    expect(error.hint).toContain('ec2:DescribeInstances');
  });

  it("refuses a DBProxy's VpcId the record lacks without a read", async () => {
    const fake = reader({});
    const error = await refusal(live(fake).evaluate(base, (r) => r.getAtt('Proxy', 'VpcId')));
    expect(error.message).toContain('Proxy.VpcId');
    expect(fake.calls).toEqual([]);
  });

  it('without a reader (planning), leaves a lacking attribute to the base resolver', async () => {
    await expect(live(undefined).evaluate(base, (r) => r.getAtt('Web', 'PrivateIp'))).rejects.toThrow(
      'base: Web.PrivateIp not recorded',
    );
  });
});

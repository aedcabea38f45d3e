import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALLS_JSON } from '../../scripts/cdk-handler-calls.js';
import { extractBundled } from '../../scripts/handler-calls/extract.js';
import { probe } from '../../scripts/handler-calls/probe.js';
import type { CallList } from '../../scripts/handler-calls/table.js';
import { verdictFor } from '../../scripts/handler-calls/verdicts.js';
import { useSandbox } from '../helpers/sandbox.js';

// Issue 35: every AWS call the custom-resource handlers bundled in the installed aws-cdk-lib
// make (and the AwsCustomResource calls aws-cdk-lib and the corpus ask for) is answered by
// the sandbox. Upgrading aws-cdk-lib to one whose handlers call something new fails here.
const sandbox = useSandbox();
const checkedIn = JSON.parse(readFileSync(CALLS_JSON, 'utf8')) as CallList;
const bundled = extractBundled();
const key = (call: { service: string; operation: string }) => `${call.service} ${call.operation}`;

describe('the calls of the installed aws-cdk-lib handlers', () => {
  it('the extraction finds the calls known to be there, in each form a handler writes them', () => {
    const found = new Set(bundled.calls.map((call) => `${key(call)} ${call.via}`));
    expect([...found]).toEqual(
      expect.arrayContaining([
        'cloudwatch-logs PutRetentionPolicy command', // new XCommand(...) through client.send
        's3 DeleteObjects method', // client.operation(...) on an aggregated client
        'route-53 GetChange waiter', // waitUntilResourceRecordSetsChanged
        'sts AssumeRole credentials', // fromTemporaryCredentials
        's3 PutBucketNotificationConfiguration boto3', // boto3 client('s3').put_...
        'eks DescribeCluster aws-cli', // aws eks update-kubeconfig
        'cloudwatch-logs PutResourcePolicy AwsCustomResource', // aws-cdk-lib's own AwsCustomResource
      ]),
    );
  });

  it(`the checked-in list (docs/_generated/cdk-handler-calls.json) is current for aws-cdk-lib ${bundled.version} (npx tsx scripts/cdk-handler-calls.ts)`, () => {
    expect(checkedIn.awsCdkLib).toBe(bundled.version);
    const listed = new Set(checkedIn.calls.map(key));
    expect([...new Set(bundled.calls.map(key))].filter((call) => !listed.has(call))).toEqual([]);
  });

  it('every call, the corpus ones too, is served or answered with AWS error for an unsupported feature', async () => {
    const calls = [...new Set([...bundled.calls.map(key), ...checkedIn.calls.map(key)])].sort();
    const unanswered: string[] = [];
    for (const call of calls) {
      const [service, operation] = call.split(' ') as [string, string];
      const verdict = await verdictFor(sandbox.current.url, service, operation);
      if (verdict.status === 'not served') {
        unanswered.push(`${call}: ${verdict.answer.unsendable ?? verdict.answer.errorCode}`);
      }
    }
    expect(unanswered).toEqual([]);
  });

  it('the probe tells an unserved operation from a served one', async () => {
    expect((await probe(sandbox.current.url, 'kms', 'ImportKeyMaterial')).errorCode).toBe(
      'UnknownOperationException',
    );
    expect((await probe(sandbox.current.url, 'kms', 'ReplicateKey')).errorCode).toBe('ValidationException');
  });
});

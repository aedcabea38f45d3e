import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.stop();
});

const signed = (service: string, extra: Record<string, string> = {}) => ({
  authorization: `AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/${service}/aws4_request, Signature=x`,
  ...extra,
});

describe('a service the sandbox does not serve answers in that service’s own protocol, naming it', () => {
  const rows: Array<[string, string, RequestInit, (body: string) => void]> = [
    [
      'query (Elastic Beanstalk)',
      'elasticbeanstalk',
      {
        method: 'POST',
        headers: signed('elasticbeanstalk', {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        }),
        body: 'Action=DescribeApplications&Version=2010-12-01',
      },
      (body) =>
        expect(body).toMatch(
          /^<ErrorResponse><Error><Type>Sender<\/Type><Code>UnknownService<\/Code><Message>[^<]*elasticbeanstalk/,
        ),
    ],
    [
      'JSON 1.1 (Firehose)',
      'firehose',
      {
        method: 'POST',
        headers: signed('firehose', {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'Firehose_20150804.ListDeliveryStreams',
        }),
        body: '{}',
      },
      (body) =>
        expect(JSON.parse(body)).toMatchObject({
          __type: 'UnknownService',
          message: expect.stringContaining("'firehose'"),
        }),
    ],
    [
      'JSON 1.0 (Simple Workflow)',
      'swf',
      {
        method: 'POST',
        headers: signed('swf', {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'SimpleWorkflowService.ListDomains',
        }),
        body: '{}',
      },
      (body) => expect(JSON.parse(body)).toMatchObject({ __type: 'UnknownService' }),
    ],
    [
      'REST-JSON (AppSync)',
      'appsync',
      { method: 'GET', headers: signed('appsync') },
      (body) => expect(JSON.parse(body)).toMatchObject({ message: expect.stringContaining("'appsync'") }),
    ],
    [
      'REST-XML (S3 Control)',
      's3control',
      { method: 'GET', headers: signed('s3control') },
      (body) => expect(body).toMatch(/<Error><Code>UnknownService<\/Code><Message>[^<]*s3control/),
    ],
  ];
  for (const [name, , init, check] of rows) {
    it(name, async () => {
      const response = await fetch(`${sandbox.url}/2020-05-31/distribution`, init);
      expect(response.status).toBe(400);
      check(await response.text());
    });
  }

  it('REST-JSON carries the code in x-amzn-errortype, where SDKs read it', async () => {
    const response = await fetch(`${sandbox.url}/v1/apis`, { method: 'GET', headers: signed('appsync') });
    expect(response.headers.get('x-amzn-errortype')).toBe('UnknownService');
  });
});

import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { stsClient } from './helpers.js';

describe('routing and STS', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  });
  afterAll(() => sandbox.stop());

  it('answers GetCallerIdentity with the configured account', async () => {
    const sts = stsClient(sandbox);
    const identity = await sts.send(new GetCallerIdentityCommand({}));
    sts.destroy();
    expect(identity).toMatchObject({
      Account: '123456789012',
      Arn: 'arn:aws:iam::123456789012:root',
      UserId: '123456789012',
    });
  });

  it('answers an unknown STS action with InvalidAction in the query error shape', async () => {
    const response = await fetch(sandbox.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/sts/aws4_request, Signature=x',
      },
      body: 'Action=AssumeNothing&Version=2011-06-15',
    });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toMatch(/^<ErrorResponse><Error><Type>Sender<\/Type><Code>InvalidAction<\/Code><Message>/);
    expect(body).toContain(`<RequestId>${response.headers.get('x-amzn-requestid')}</RequestId>`);
  });

  it('routes presigned requests by X-Amz-Credential', async () => {
    const credential = encodeURIComponent('AKID/20240101/us-east-1/sts/aws4_request');
    const response = await fetch(
      `${sandbox.url}/?Action=GetCallerIdentity&Version=2011-06-15&X-Amz-Credential=${credential}`,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<Account>123456789012</Account>');
  });

  it('answers an unsigned request with an AWS-shaped MissingAuthenticationToken error', async () => {
    const response = await fetch(`${sandbox.url}/some-bucket`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<Code>MissingAuthenticationToken</Code>');
  });

  it('answers a service it does not serve with an AWS-shaped error in its protocol', async () => {
    const response = await fetch(sandbox.url, {
      method: 'POST',
      headers: {
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/firehose/aws4_request, Signature=x',
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'Firehose_20150804.ListDeliveryStreams',
      },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ __type: 'UnknownService' });
  });

  it('answers an S3 operation it does not implement with NotImplemented (501)', async () => {
    const response = await fetch(`${sandbox.url}/some-bucket?uploads`, {
      method: 'POST',
      headers: {
        authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/s3/aws4_request, Signature=x',
      },
    });
    expect(response.status).toBe(501);
    expect(await response.text()).toContain('<Code>NotImplemented</Code>');
  });

  it('lets a request in flight finish when stopped', async () => {
    const local = await startSandbox({ port: 0 });
    await fetch(`${local.url}/_sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ service: 'sts', operation: 'GetCallerIdentity', latencyMs: 3_000 }),
    });
    const sts = stsClient(local);
    const call = sts.send(new GetCallerIdentityCommand({}));
    // Stopped once the call is being answered, however long the machine takes to send it.
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${local.url}/_sandbox/in-flight`)).json()) as { inFlight: number }).inFlight,
        { timeout: 60_000 },
      )
      .toBe(1);
    await local.stop();
    await expect(call).resolves.toMatchObject({ Account: '000000000000' });
    sts.destroy();
  });
});

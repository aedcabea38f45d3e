import { createHash, createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { lambdaInvoker, s3ObjectReader, snsPublisher } from '../../../ports/index.js';
import type { SandboxContext } from '../../../service-module.js';
import type { StackRecord } from '../model/types.js';
import { StepFailure } from './failures.js';

export interface CustomResourceRequest {
  requestType: 'Create' | 'Update' | 'Delete';
  stack: StackRecord;
  logicalId: string;
  type: string;
  properties: Record<string, unknown>;
  oldProperties?: Record<string, unknown>;
  physicalId?: string;
}

export interface CustomResourceAnswer {
  physicalId: string;
  data: Record<string, unknown>;
}

/** CloudFormation's limits: the answer's size, and how long it waits for one by default (an hour). */
const MAX_RESPONSE = 4096;
const DEFAULT_TIMEOUT_S = 3600;
const POLL_MS = 200;

/** The key CloudFormation signs ResponseURLs with; the sandbox checks no signature. */
const SIGNING_KEY = {
  accessKeyId: 'AKIACLOUDFORMATIONSB',
  secret: 'cloudformation-custom-resource-responses',
};

/**
 * Custom resources as CloudFormation runs them: the request goes to the ServiceToken (a
 * Lambda function, invoked as an Event, or an SNS topic) with a pre-signed ResponseURL on the
 * sandbox's S3, in the response bucket CloudFormation keeps per region; the handler PUTs its
 * answer there and CloudFormation reads it. The bucket exists while an answer is awaited.
 */
export class CustomResources {
  private readonly waiting = new Map<string, number>();

  constructor(
    private readonly context: SandboxContext,
    private readonly closing: () => boolean,
  ) {}

  async send(request: CustomResourceRequest): Promise<CustomResourceAnswer> {
    const token = request.properties.ServiceToken;
    if (typeof token !== 'string' || token === '') {
      throw new StepFailure('Template error: a custom resource needs a ServiceToken');
    }
    const { region, accountId, stackId } = request.stack;
    const requestId = randomUUID();
    const bucket = `cloudformation-custom-resource-response-${region.replaceAll('-', '')}`;
    const key = `${encodeURIComponent(stackId)}|${request.logicalId}|${requestId}`;
    await this.open(bucket, region, accountId);
    try {
      const event = {
        RequestType: request.requestType,
        ServiceToken: token,
        ResponseURL: this.responseUrl(bucket, key, region),
        StackId: stackId,
        RequestId: requestId,
        LogicalResourceId: request.logicalId,
        ResourceType: request.type,
        ResourceProperties: request.properties,
        ...(request.oldProperties ? { OldResourceProperties: request.oldProperties } : {}),
        ...(request.physicalId !== undefined ? { PhysicalResourceId: request.physicalId } : {}),
      };
      await this.deliver(token, JSON.stringify(event), request.stack);
      const body = await this.answer(bucket, key, requestId, timeoutOf(request.properties));
      return parseAnswer(body, requestId, request);
    } finally {
      await this.release(bucket, key, region, accountId);
    }
  }

  private async deliver(token: string, payload: string, stack: StackRecord): Promise<void> {
    const service = token.split(':')[2];
    if (service === 'lambda') {
      const name = token.split(':')[6] ?? '';
      const region = token.split(':')[3] ?? stack.region;
      const account = token.split(':')[4] ?? stack.accountId;
      const fn = this.context.resources.resolve('AWS::Lambda::Function')?.read(name, region, account);
      const invoker = lambdaInvoker.of(this.context);
      if (!fn || !invoker) throw new StepFailure(`Invalid service token: function ${token} does not exist`);
      await invoker.invokeAsync(token, payload);
      return;
    }
    const publisher = snsPublisher.of(this.context);
    if (service === 'sns' && publisher) {
      await publisher.publish(token, payload, 'AWS CloudFormation custom resource request');
      return;
    }
    throw new StepFailure(`Invalid service token: ${token} is neither a Lambda function nor an SNS topic`);
  }

  private async answer(bucket: string, key: string, requestId: string, timeoutS: number): Promise<Buffer> {
    const reader = s3ObjectReader.of(this.context);
    const deadline = Date.now() + timeoutS * 1000;
    while (reader && Date.now() < deadline && !this.closing()) {
      const body = await reader.read(bucket, key);
      if (typeof body !== 'string') return body;
      await sleep(POLL_MS);
    }
    throw new StepFailure(
      `CloudFormation did not receive a response from your Custom Resource. Please check your logs for requestId [${requestId}].`,
    );
  }

  /** The response bucket, made when the first answer of a region is awaited. */
  private async open(bucket: string, region: string, accountId: string): Promise<void> {
    const count = this.waiting.get(bucket) ?? 0;
    this.waiting.set(bucket, count + 1);
    const buckets = this.context.resources.resolve('AWS::S3::Bucket');
    if (buckets && !buckets.read(bucket, region, accountId)) {
      await buckets.create({ BucketName: bucket }, region, accountId).catch(() => undefined);
    }
  }

  /** The answer removed once read, and the bucket with the last one awaited. */
  private async release(bucket: string, key: string, region: string, accountId: string): Promise<void> {
    await s3ObjectReader.of(this.context)?.remove(bucket, key);
    const count = (this.waiting.get(bucket) ?? 1) - 1;
    if (count > 0) {
      this.waiting.set(bucket, count);
      return;
    }
    this.waiting.delete(bucket);
    await this.context.resources
      .resolve('AWS::S3::Bucket')
      ?.delete(bucket, region, accountId)
      .catch(() => undefined);
  }

  /** A SigV4 pre-signed PUT on the sandbox's S3, path style, good for two hours as CloudFormation's are. */
  private responseUrl(bucket: string, key: string, region: string): string {
    const endpoint = new URL(this.context.endpoint ?? 'http://127.0.0.1');
    const now = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const date = now.slice(0, 8);
    const scope = `${date}/${region}/s3/aws4_request`;
    const path = `/${bucket}/${encodeRfc3986(key)}`;
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': `${SIGNING_KEY.accessKeyId}/${scope}`,
      'X-Amz-Date': now,
      'X-Amz-Expires': '7200',
      'X-Amz-SignedHeaders': 'host',
    });
    query.sort();
    const canonical = [
      'PUT',
      path,
      query.toString(),
      `host:${endpoint.host}\n`,
      'host',
      'UNSIGNED-PAYLOAD',
    ].join('\n');
    const toSign = [
      'AWS4-HMAC-SHA256',
      now,
      scope,
      createHash('sha256').update(canonical).digest('hex'),
    ].join('\n');
    let signingKey: Buffer = Buffer.from(`AWS4${SIGNING_KEY.secret}`);
    for (const part of [date, region, 's3', 'aws4_request']) {
      signingKey = createHmac('sha256', signingKey).update(part).digest();
    }
    query.set('X-Amz-Signature', createHmac('sha256', signingKey).update(toSign).digest('hex'));
    return `${endpoint.origin}${path}?${query.toString()}`;
  }
}

function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** ServiceTimeout (seconds, 1 to 3600) on the resource, else CloudFormation's hour. */
function timeoutOf(properties: Record<string, unknown>): number {
  const given = Number(properties.ServiceTimeout);
  return Number.isFinite(given) && given >= 1 && given <= DEFAULT_TIMEOUT_S ? given : DEFAULT_TIMEOUT_S;
}

function parseAnswer(body: Buffer, requestId: string, request: CustomResourceRequest): CustomResourceAnswer {
  if (body.length > MAX_RESPONSE) throw new StepFailure('Response object is too long.');
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new StepFailure(`Invalid response object: the answer to request ${requestId} is not JSON`);
  }
  if (answer.Status === 'FAILED') {
    throw new StepFailure(
      `Received response status [FAILED] from custom resource. Message returned: ${String(answer.Reason ?? 'See the details in CloudWatch Log Stream')} (RequestId: ${requestId})`,
    );
  }
  if (answer.Status !== 'SUCCESS') {
    throw new StepFailure(
      `Invalid response object: Status must be SUCCESS or FAILED (RequestId: ${requestId})`,
    );
  }
  const physicalId = answer.PhysicalResourceId ?? request.physicalId;
  if (typeof physicalId !== 'string' || physicalId === '') {
    throw new StepFailure(`Invalid PhysicalResourceId (RequestId: ${requestId})`);
  }
  const data = answer.Data;
  return {
    physicalId,
    data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
  };
}

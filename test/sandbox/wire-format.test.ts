import { describe, expect, it } from 'vitest';
import { decodeAwsChunked } from '../../src/sandbox/aws-chunked.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { credentialScope, type SandboxRequest } from '../../src/sandbox/request.js';
import { bucketNameProblem } from '../../src/sandbox/services/s3/bucket-name.js';
import { computeChecksum } from '../../src/sandbox/services/s3/checksums.js';
import { s3OperationName } from '../../src/sandbox/services/s3/operations.js';

describe('aws-chunked decoding', () => {
  it('joins chunks and returns trailers, ignoring chunk signatures and the trailer signature', () => {
    const raw = Buffer.from(
      '5;chunk-signature=abc\r\nhello\r\n6\r\n world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\nx-amz-trailer-signature:def\r\n\r\n',
    );
    expect(decodeAwsChunked(raw)).toEqual({
      body: Buffer.from('hello world'),
      trailers: { 'x-amz-checksum-crc32': 'DUoRhQ==' },
    });
  });

  it('refuses a body cut short as IncompleteBody', () => {
    expect(() => decodeAwsChunked(Buffer.from('a\r\nshort'))).toThrow(SandboxError);
  });
});

describe('checksums', () => {
  // The standard check input "123456789" for each algorithm.
  it.each([
    ['CRC32', 'y/Q5Jg=='],
    ['CRC32C', '4waSgw=='],
    ['CRC64NVME', 'rosUhgp5mIg='],
  ] as const)('%s matches the reference check value', (algorithm, expected) => {
    expect(computeChecksum(algorithm, Buffer.from('123456789'))).toBe(expected);
  });
});

describe('bucket names', () => {
  it.each(['my-bucket', 'cdkd-state-000000000000', 'a.b.c', '123'])('accepts %s', (name) => {
    expect(bucketNameProblem(name)).toBeUndefined();
  });
  it.each(['My-Bucket', 'a_b', 'ab', 'a-', 'a..b', '10.0.0.1', 'sthree-x', 'x-s3alias', 'x'.repeat(64)])(
    'refuses %s',
    (name) => {
      expect(bucketNameProblem(name)).toEqual(expect.any(String));
    },
  );
});

describe('routing inputs', () => {
  it('reads the service from the Authorization credential scope or a presigned X-Amz-Credential', () => {
    const header =
      'AWS4-HMAC-SHA256 Credential=AKID/20240101/eu-west-1/s3/aws4_request, SignedHeaders=host, Signature=x';
    expect(credentialScope({ authorization: header }, new URLSearchParams())).toEqual({
      accessKeyId: 'AKID',
      region: 'eu-west-1',
      service: 's3',
    });
    const query = new URLSearchParams({ 'X-Amz-Credential': 'AKID/20240101/us-west-2/sts/aws4_request' });
    expect(credentialScope({}, query)?.service).toBe('sts');
    expect(credentialScope({}, new URLSearchParams())).toBeUndefined();
  });

  function request(method: string, url: string, headers: Record<string, string> = {}): SandboxRequest {
    const parsed = new URL(url, 'http://localhost');
    return {
      method,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers,
      body: Buffer.alloc(0),
      service: 's3',
      region: 'us-east-1',
      accessKeyId: 'AKID',
      accountId: '000000000000',
      requestId: 'r',
    };
  }

  it.each([
    ['GET', '/', {}, 'ListBuckets'],
    ['PUT', '/b', {}, 'CreateBucket'],
    ['PUT', '/b?versioning', {}, 'PutBucketVersioning'],
    ['GET', '/b?location', {}, 'GetBucketLocation'],
    ['DELETE', '/b?policy', {}, 'DeleteBucketPolicy'],
    ['GET', '/b?list-type=2&prefix=a', {}, 'ListObjectsV2'],
    ['GET', '/b?versions', {}, 'ListObjectVersions'],
    ['POST', '/b?delete', {}, 'DeleteObjects'],
    ['PUT', '/b/k?x-id=PutObject', {}, 'PutObject'],
    ['PUT', '/b/k?x-id=CopyObject', { 'x-amz-copy-source': 'b/src' }, 'CopyObject'],
    ['HEAD', '/b/k', {}, 'HeadObject'],
    ['POST', '/b/k?uploads&x-id=CreateMultipartUpload', {}, 'CreateMultipartUpload'],
    ['GET', '/', { host: 'my-bucket.localhost:4566' }, 'ListObjects'],
  ] as const)('%s %s names %s', (method, url, headers, operation) => {
    expect(s3OperationName(request(method, url, headers))).toBe(operation);
  });
});

import { describe, expect, it } from 'vitest';
import { bypassed, proxyConfigured, proxyFor } from '../../src/aws/proxy-settings.js';

const http = new URL('http://127.0.0.1:4599/');
const https = new URL('https://sqs.us-east-1.amazonaws.com/');

describe('proxyFor: which proxy a request goes through (spec 003, "Proxy handling")', () => {
  it.each([
    ['nothing set', https, {}, undefined],
    ['HTTPS_PROXY for https', https, { HTTPS_PROXY: 'http://p:1' }, 'http://p:1'],
    ['HTTPS_PROXY not for http', http, { HTTPS_PROXY: 'http://p:1' }, undefined],
    ['HTTP_PROXY for http', http, { HTTP_PROXY: 'http://p:2' }, 'http://p:2'],
    [
      'lower case wins',
      https,
      { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:1' },
      'http://lower:1',
    ],
    [
      'lower case set empty turns it off',
      https,
      { HTTPS_PROXY: 'http://upper:1', https_proxy: '' },
      undefined,
    ],
    ['a proxy without a scheme is http', https, { HTTPS_PROXY: 'p:3128' }, 'http://p:3128'],
    ['NO_PROXY bypasses', http, { HTTP_PROXY: 'http://p:2', NO_PROXY: '127.0.0.1' }, undefined],
    [
      'lower-case no_proxy wins',
      http,
      { HTTP_PROXY: 'http://p:2', NO_PROXY: '127.0.0.1', no_proxy: 'other' },
      'http://p:2',
    ],
  ])('%s', (_case, target, env, expected) => {
    expect(proxyFor(target, env)).toBe(expected);
  });
});

describe('bypassed: NO_PROXY entries', () => {
  it.each([
    ['*', https, true],
    ['amazonaws.com', https, true],
    ['.amazonaws.com', https, true],
    ['us-east-1.amazonaws.com', https, true],
    ['zonaws.com', https, false],
    ['sqs.us-east-1.amazonaws.com:443', https, true],
    ['sqs.us-east-1.amazonaws.com:8443', https, false],
    ['127.0.0.1:4599', http, true],
    ['127.0.0.1:80', http, false],
    ['127.0.0.0/8', http, false],
    ['example.com, 127.0.0.1', http, true],
    ['SQS.US-EAST-1.AMAZONAWS.COM', https, true],
  ])('%s for %s -> %s', (entry, target, expected) => {
    expect(bypassed(target, entry)).toBe(expected);
  });
});

describe('proxyConfigured', () => {
  it.each([
    [{}, false],
    [{ HTTPS_PROXY: 'http://p:1' }, true],
    [{ http_proxy: 'http://p:1' }, true],
    [{ NO_PROXY: '*' }, false],
  ])('%j -> %s', (env, expected) => {
    expect(proxyConfigured(env)).toBe(expected);
  });
});

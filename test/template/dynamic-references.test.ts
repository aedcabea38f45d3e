import { describe, expect, it } from 'vitest';
import {
  containsDynamicReference,
  parseDynamicReferences,
  resolveDynamicReferences,
  type DynamicReference,
} from '../../src/template/index.js';

describe('dynamic references', () => {
  it.each<[string, Partial<DynamicReference>]>([
    ['{{resolve:ssm:/app/name}}', { service: 'ssm', key: '/app/name', version: undefined }],
    ['{{resolve:ssm:/app/name:3}}', { service: 'ssm', key: '/app/name', version: '3' }],
    ['{{resolve:ssm-secure:db-password:1}}', { service: 'ssm-secure', key: 'db-password', version: '1' }],
    [
      '{{resolve:secretsmanager:MySecret}}',
      { service: 'secretsmanager', key: 'MySecret', jsonKey: undefined },
    ],
    ['{{resolve:secretsmanager:MySecret:SecretString:password}}', { key: 'MySecret', jsonKey: 'password' }],
    [
      '{{resolve:secretsmanager:MySecret:SecretString:password:AWSPREVIOUS}}',
      { jsonKey: 'password', versionStage: 'AWSPREVIOUS' },
    ],
    [
      '{{resolve:secretsmanager:MySecret:SecretString:::abc-123}}',
      { jsonKey: undefined, versionStage: undefined, versionId: 'abc-123' },
    ],
    [
      '{{resolve:secretsmanager:arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf:SecretString:user}}',
      { key: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf', jsonKey: 'user' },
    ],
  ])('parses %s', (text, expected) => {
    const [ref, ...rest] = parseDynamicReferences(`prefix ${text} suffix`);
    expect(rest).toEqual([]);
    expect(ref).toMatchObject({ text, ...expected });
  });

  it.each<[unknown, boolean]>([
    ['plain', false],
    ['{{resolve:ssm:/x}}', true],
    ['{{resolve:s3:/x}}', false],
    [{ a: [1, { b: 'x {{resolve:secretsmanager:S}}' }] }, true],
    [{ a: [1, { b: 'x' }] }, false],
    [42, false],
  ])('detects references in %j → %s', (value, expected) => {
    expect(containsDynamicReference(value)).toBe(expected);
  });

  it('resolves references deep in a value, leaving the input untouched', async () => {
    const input = {
      User: '{{resolve:ssm:/u}}',
      Conn: ['pw={{resolve:ssm-secure:/p:2}};u={{resolve:ssm:/u}}', 5],
      Price: '$1',
    };
    const copy = structuredClone(input);
    const asked: string[] = [];
    const resolved = await resolveDynamicReferences(input, async (ref) => {
      asked.push(ref.text);
      return ref.service === 'ssm-secure' ? 's3cr$&t' : 'admin';
    });
    expect(resolved).toEqual({ User: 'admin', Conn: ['pw=s3cr$&t;u=admin', 5], Price: '$1' });
    expect(input).toEqual(copy);
    expect(asked).toHaveLength(3);
  });
});

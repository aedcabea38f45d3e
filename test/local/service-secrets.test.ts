import { describe, expect, it } from 'vitest';
import { parameterName } from '../../src/local/service/service-secrets.js';

describe("an SSM parameter's name from the ValueFrom ECS takes", () => {
  it.each([
    ['arn:aws:ssm:us-east-1:123456789012:parameter/Live-Token', 'Live-Token'],
    ['arn:aws:ssm:us-east-1:123456789012:parameter/app/prod/token', '/app/prod/token'],
    ['/app/prod/token', '/app/prod/token'],
    ['plain-name', 'plain-name'],
  ])('%s → %s', (valueFrom, name) => {
    expect(parameterName(valueFrom)).toBe(name);
  });
});

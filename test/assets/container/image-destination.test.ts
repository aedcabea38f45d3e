import { describe, expect, it } from 'vitest';
import {
  checkImageDestination,
  resolvePlaceholders,
} from '../../../src/assets/container/image-destination.js';
import { registryAddress } from '../../../src/assets/container/registry-login.js';

const TARGET = { accountId: '123456789012', region: 'eu-west-1' };
const ASSET = { name: 'Fn/Image (abc)', stack: 'App' };

describe('checkImageDestination', () => {
  // [case, repositoryName, region, accepted repository or undefined for refused]
  const rows: Array<[string, string, string | undefined, string | undefined]> = [
    [
      'default synthesizer, placeholders',
      'cdk-hnb659fds-container-assets-${AWS::AccountId}-${AWS::Region}',
      undefined,
      'cdk-hnb659fds-container-assets-123456789012-eu-west-1',
    ],
    [
      'concrete environment',
      'cdk-hnb659fds-container-assets-123456789012-eu-west-1',
      'eu-west-1',
      'cdk-hnb659fds-container-assets-123456789012-eu-west-1',
    ],
    [
      'custom qualifier',
      'cdk-myqual1-container-assets-123456789012-eu-west-1',
      undefined,
      'cdk-myqual1-container-assets-123456789012-eu-west-1',
    ],
    ['another account', 'cdk-hnb659fds-container-assets-999999999999-eu-west-1', undefined, undefined],
    [
      'another region in the name',
      'cdk-hnb659fds-container-assets-123456789012-us-east-1',
      undefined,
      undefined,
    ],
    [
      'another destination region',
      'cdk-hnb659fds-container-assets-${AWS::AccountId}-${AWS::Region}',
      'us-east-1',
      undefined,
    ],
    ['a repository of another purpose', 'my-app-images', undefined, undefined],
    [
      'a prefix of the shape only',
      'cdk-hnb659fds-container-assets-123456789012-eu-west-1-extra',
      undefined,
      undefined,
    ],
  ];
  it.each(rows)('%s', (_name, repositoryName, region, accepted) => {
    const destination = { id: 'd', repositoryName, imageTag: 'abc', ...(region ? { region } : {}) };
    if (accepted) {
      expect(checkImageDestination(destination, TARGET, ASSET)).toEqual({
        repositoryName: accepted,
        imageTag: 'abc',
      });
    } else {
      expect(() => checkImageDestination(destination, TARGET, ASSET)).toThrow(
        expect.objectContaining({
          code: 'ASSET_DESTINATION_REFUSED',
          message: expect.stringContaining('Fn/Image'),
        }),
      );
    }
  });

  it('fills every placeholder', () => {
    expect(resolvePlaceholders('${AWS::Partition}:${AWS::AccountId}:${AWS::Region}', TARGET)).toBe(
      'aws:123456789012:eu-west-1',
    );
  });
});

describe('registryAddress', () => {
  it.each([
    [
      'https://123456789012.dkr.ecr.eu-west-1.amazonaws.com',
      '123456789012.dkr.ecr.eu-west-1.amazonaws.com',
      true,
    ],
    ['http://127.0.0.1:4566', '127.0.0.1:4566', false],
    ['http://127.0.0.1:4566/', '127.0.0.1:4566', false],
    ['registry.example.com', 'registry.example.com', true],
  ])('%s', (endpoint, host, secure) => {
    expect(registryAddress(endpoint)).toEqual({ host, secure });
  });
});

import { describe, expect, it } from 'vitest';
import type { CheckedStack } from '../../src/assembly/check-assembly.js';
import { refuseUnknownPinnedIds, routingOptions } from '../../src/toolkit/stacks/routing-flags.js';

describe('routingOptions', () => {
  it.each<[string, Parameters<typeof routingOptions>[0], ReturnType<typeof routingOptions>]>([
    ['no flags', {}, {}],
    ['--prefer-sdk-route alone', { preferSdkRoute: true }, { preferSdkRoute: 'all' }],
    [
      'TYPE:PROPERTY values',
      { preferSdkRoute: ['AWS::S3::Bucket:ObjectLockEnabled'] },
      { preferSdkRoute: [{ type: 'AWS::S3::Bucket', property: 'ObjectLockEnabled' }] },
    ],
    ['--pin-cc-api ids', { pinCcApi: ['A', 'B'] }, { pinCcApi: new Set(['A', 'B']) }],
  ])('%s', (_, flags, options) => {
    expect(routingOptions(flags)).toEqual(options);
  });

  it.each(['Bucket', 'AWS::S3::Bucket', 'AWS::S3::Bucket:NoSuchProperty', 'AWS::Nope::Thing:Name'])(
    'refuses --prefer-sdk-route %s',
    (value) => {
      expect(() => routingOptions({ preferSdkRoute: [value] })).toThrow(
        expect.objectContaining({ code: 'PREFER_SDK_ROUTE_INVALID' }),
      );
    },
  );
});

describe('refuseUnknownPinnedIds (spec 002, "--pin-cc-api: why an unknown id is an error")', () => {
  const template = (...ids: string[]) => ({ Resources: Object.fromEntries(ids.map((id) => [id, {}])) });
  const stacks = [
    { stack: { template: template('Queue') }, nested: [] },
    {
      stack: { template: template('Child') },
      nested: [{ template: template('Inner'), nested: [{ template: template('Deepest'), nested: [] }] }],
    },
  ] as unknown as CheckedStack[];

  it.each([[['Queue']], [['Inner', 'Deepest', 'Child']], [[]]])(
    'accepts %j: each in some stack of the run',
    (ids) => {
      expect(() => refuseUnknownPinnedIds(ids, stacks)).not.toThrow();
    },
  );

  it('refuses an id in no stack, naming it', () => {
    expect(() => refuseUnknownPinnedIds(['Queue', 'Queeu'], stacks)).toThrow(
      expect.objectContaining({ code: 'PIN_CC_API_UNKNOWN_ID', message: expect.stringContaining('Queeu') }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { ALIAS_DESCRIPTION } from '../../src/providers/lambda/alias.js';
import { LambdaChildProvider } from '../../src/providers/lambda/child-family.js';
import { EVENT_INVOKE_CONFIG_DESCRIPTION } from '../../src/providers/lambda/event-invoke-config.js';
import { URL_DESCRIPTION } from '../../src/providers/lambda/url.js';

describe('Lambda children as descriptions', () => {
  it.each([
    ['AWS::Lambda::Alias', new LambdaChildProvider(ALIAS_DESCRIPTION), false],
    ['AWS::Lambda::Url', new LambdaChildProvider(URL_DESCRIPTION), false],
    ['AWS::Lambda::EventInvokeConfig', new LambdaChildProvider(EVENT_INVOKE_CONFIG_DESCRIPTION), true],
  ])(
    '%s: looks its id up before a create only where the create overwrites a taken one',
    (type, provider, looksUp) => {
      expect(provider.handles(type)).toBe(true);
      expect(provider.nameHolder !== undefined).toBe(looksUp);
    },
  );

  it('answers each type’s write-only paths from its description', () => {
    expect(new LambdaChildProvider(URL_DESCRIPTION).writeOnlyProperties()).toEqual([
      'TargetFunctionArn',
      'Qualifier',
    ]);
    expect(new LambdaChildProvider(ALIAS_DESCRIPTION).writeOnlyProperties()).toEqual([]);
  });
});

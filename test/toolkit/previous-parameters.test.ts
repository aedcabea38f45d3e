import { describe, expect, it } from 'vitest';
import type { Template } from '../../src/assembly/index.js';
import { carriedParameters, mayCarry } from '../../src/toolkit/stacks/previous-parameters.js';

const template = {
  Parameters: {
    Plain: { Type: 'String', Default: 'd' },
    Required: { Type: 'Number' },
    List: { Type: 'CommaDelimitedList' },
    Secret: { Type: 'String', NoEcho: true },
    BootstrapVersion: {
      Type: 'AWS::SSM::Parameter::Value<String>',
      Default: '/cdk-bootstrap/hnb659fds/version',
    },
  },
  Resources: {},
} as unknown as Template;

describe('the parameters a deploy carries from the stack record (--previous-parameters)', () => {
  const recorded = {
    Plain: 'before',
    Required: '5',
    List: ['a', 'b'],
    Secret: '****',
    BootstrapVersion: '21',
  };

  it.each([
    ['a recorded value the deploy does not give is carried, over the Default', 'Plain', 'before'],
    ['a recorded value with no Default is carried', 'Required', '5'],
    ['a recorded list is carried as CloudFormation writes one', 'List', 'a,b'],
    ['a NoEcho value (masked in the record) is not', 'Secret', undefined],
    ['an SSM-typed parameter, looked up afresh each deploy, is not', 'BootstrapVersion', undefined],
  ])('%s', (_row, name, expected) => {
    expect(carriedParameters(template, {}, recorded)[name]).toBe(expected);
  });

  it('a value the app or --parameters gives wins', () => {
    expect(carriedParameters(template, { Plain: 'given' }, recorded).Plain).toBeUndefined();
  });

  it('a parameter the last deploy did not record is not carried', () => {
    expect(carriedParameters(template, {}, {})).toEqual({});
  });

  it('reads a record only for a template with something to carry', () => {
    expect(mayCarry(template, {})).toBe(true);
    expect(mayCarry(template, { Plain: 'x', Required: '1', List: 'a' })).toBe(false);
  });
});

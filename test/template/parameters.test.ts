import { describe, expect, it } from 'vitest';
import {
  classifyParameterType,
  maskParameters,
  parseTemplate,
  resolveParameters,
  resolveParameterValue,
  type ParameterDefinition,
} from '../../src/template/index.js';
import { expectTemplateError, expectTemplateRejection } from './helpers.js';

const def = (over: Partial<ParameterDefinition>): ParameterDefinition => ({
  type: 'String',
  noEcho: false,
  ...over,
});

describe('parameter types', () => {
  it.each<[string, ReturnType<typeof classifyParameterType>]>([
    ['String', { kind: 'string', ssm: false }],
    ['Number', { kind: 'number', ssm: false }],
    ['List<Number>', { kind: 'number-list', ssm: false }],
    ['CommaDelimitedList', { kind: 'string-list', ssm: false }],
    ['List<String>', { kind: 'string-list', ssm: false }],
    ['AWS::EC2::KeyPair::KeyName', { kind: 'string', ssm: false }],
    ['AWS::EC2::VPC::Id', { kind: 'string', ssm: false }],
    ['List<AWS::EC2::Subnet::Id>', { kind: 'string-list', ssm: false }],
    ['AWS::SSM::Parameter::Name', { kind: 'string', ssm: false }],
    ['AWS::SSM::Parameter::Value<String>', { kind: 'string', ssm: true }],
    ['AWS::SSM::Parameter::Value<List<String>>', { kind: 'string-list', ssm: true }],
    ['AWS::SSM::Parameter::Value<CommaDelimitedList>', { kind: 'string-list', ssm: true }],
    ['AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', { kind: 'string', ssm: true }],
    ['AWS::SSM::Parameter::Value<List<AWS::EC2::Image::Id>>', { kind: 'string-list', ssm: true }],
    ['AWS::SSM::Parameter::Value<Number>', undefined],
    ['Boolean', undefined],
    ['string', undefined],
  ])('%s', (type, expected) => {
    expect(classifyParameterType(type)).toEqual(expected);
  });
});

describe('parameter values', () => {
  it.each<[string, Partial<ParameterDefinition>, unknown, unknown]>([
    ['String default', { default: 'a' }, undefined, 'a'],
    ['String supplied wins', { default: 'a' }, 'b', 'b'],
    ['Number default as number', { type: 'Number', default: 5 }, undefined, '5'],
    ['Number float', { type: 'Number' }, '-1.5e3', '-1.5e3'],
    ['List<Number>', { type: 'List<Number>' }, '1, 2,3', ['1', '2', '3']],
    ['CommaDelimitedList trims members', { type: 'CommaDelimitedList' }, ' a , b ', ['a', 'b']],
    ['CommaDelimitedList given as list', { type: 'CommaDelimitedList' }, ['a', 'b'], ['a', 'b']],
    [
      'List of AWS type',
      { type: 'List<AWS::EC2::Subnet::Id>' },
      'subnet-1,subnet-2',
      ['subnet-1', 'subnet-2'],
    ],
    ['AWS-specific as String', { type: 'AWS::EC2::VPC::Id' }, 'vpc-1', 'vpc-1'],
    ['AllowedValues', { allowedValues: ['a', 'b'] }, 'b', 'b'],
    ['AllowedValues numbers', { type: 'Number', allowedValues: [1, 2] }, '2', '2'],
    ['AllowedPattern full match', { allowedPattern: '[a-z]+' }, 'abc', 'abc'],
    ['MinLength/MaxLength', { minLength: 2, maxLength: 3 }, 'abc', 'abc'],
    ['MinValue/MaxValue', { type: 'Number', minValue: 1, maxValue: 10 }, '10', '10'],
    [
      'List members each checked',
      { type: 'CommaDelimitedList', allowedValues: ['a', 'b'] },
      'a,b',
      ['a', 'b'],
    ],
  ])('%s', (_name, over, supplied, expected) => {
    expect(resolveParameterValue('P', def(over), supplied)).toEqual(expected);
  });

  it.each<[string, Partial<ParameterDefinition>, unknown, string[]]>([
    [
      'AllowedValues',
      { allowedValues: ['a', 'b'] },
      'c',
      ['value "c" for parameter P must be one of "a", "b" (AllowedValues)'],
    ],
    [
      'AllowedPattern is a full match',
      { allowedPattern: '[a-z]+' },
      'abc1',
      ['value "abc1"', 'must match the AllowedPattern [a-z]+'],
    ],
    [
      'AllowedPattern anchoring of alternatives',
      { allowedPattern: 'a|b' },
      'ab',
      ['must match the AllowedPattern a|b'],
    ],
    ['MinLength', { minLength: 3 }, 'ab', ['must be at least 3 characters (MinLength)']],
    ['MaxLength', { maxLength: 1 }, 'ab', ['must be at most 1 characters (MaxLength)']],
    ['not a number', { type: 'Number' }, 'ten', ['value "ten" for parameter P must be a number']],
    ['MinValue', { type: 'Number', minValue: 5 }, '4', ['must be at least 5 (MinValue)']],
    ['MaxValue', { type: 'Number', maxValue: 5 }, '6', ['must be at most 5 (MaxValue)']],
    ['List<Number> member', { type: 'List<Number>' }, '1,x', ['value "x"', 'must be a number']],
    ['list for a String', {}, ['a', 'b'], ['parameter P takes a single value, got a list']],
    [
      'ConstraintDescription replaces the rule',
      { allowedPattern: '\\d+', constraintDescription: 'must be digits only' },
      'x',
      ['value "x" for parameter P must be digits only'],
    ],
    ['NoEcho value is masked', { noEcho: true, minLength: 10 }, 'hunter2', ['value *** for parameter P']],
  ])('%s fails with PARAMETER_INVALID', (_name, over, supplied, parts) => {
    const error = expectTemplateError(
      () => resolveParameterValue('P', def(over), supplied),
      'PARAMETER_INVALID',
      'Parameters.P:',
      ...parts,
    );
    if (over.noEcho) expect(error.message).not.toContain('hunter2');
  });

  it('a required parameter without value is PARAMETER_MISSING naming it', () => {
    expectTemplateError(
      () => resolveParameterValue('DbPassword', def({})),
      'PARAMETER_MISSING',
      'Parameters.DbPassword',
      'DbPassword has no value and no Default',
    );
  });

  it('an invalid AllowedPattern is a template error', () => {
    expectTemplateError(
      () => resolveParameterValue('P', def({ allowedPattern: '(' }), 'x'),
      'TEMPLATE_INVALID',
      'Parameters.P.AllowedPattern',
    );
  });

  it('an unsupported type is a template error', () => {
    expectTemplateError(
      () => resolveParameterValue('P', def({ type: 'Bool' }), 'x'),
      'TEMPLATE_INVALID',
      'Parameters.P.Type',
      '"Bool"',
    );
  });
});

describe('resolveParameters', () => {
  const template = parseTemplate(
    JSON.stringify({
      Parameters: {
        Env: { Type: 'String', Default: 'dev' },
        Secret: { Type: 'String', NoEcho: true },
        Ami: { Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', Default: '/aws/ami' },
        Zones: { Type: 'AWS::SSM::Parameter::Value<List<String>>', Default: '/zones' },
        Cidrs: { Type: 'AWS::SSM::Parameter::Value<CommaDelimitedList>', Default: '/cidrs' },
        Plain: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/plain' },
      },
    }),
  );
  const ssm: Record<string, string> = {
    '/aws/ami': 'ami-123',
    '/zones': 'a, b',
    '/cidrs': '10.0.0.0/16,10.1.0.0/16',
    '/plain': 'v',
    '/other': 'w',
  };
  const ssmParameter = async (name: string) => {
    const value = ssm[name];
    if (value === undefined) throw new Error(`ParameterNotFound: ${name}`);
    return value;
  };

  it('resolves defaults, supplied values and SSM-typed values, in declaration order', async () => {
    const resolved = await resolveParameters(
      template,
      { Secret: 's3cret', Plain: '/other' },
      { ssmParameter },
    );
    expect([...resolved.values]).toEqual([
      ['Env', 'dev'],
      ['Secret', 's3cret'],
      ['Ami', 'ami-123'],
      ['Zones', ['a', 'b']],
      ['Cidrs', ['10.0.0.0/16', '10.1.0.0/16']],
      ['Plain', 'w'],
    ]);
    expect([...resolved.noEcho]).toEqual(['Secret']);
    expect(maskParameters(resolved)).toMatchObject({ Secret: '***', Env: 'dev' });
  });

  it('reads each SSM parameter through the resolver only', async () => {
    const asked: string[] = [];
    await resolveParameters(
      template,
      { Secret: 'x' },
      { ssmParameter: async (n) => (asked.push(n), ssmParameter(n)) },
    );
    expect(asked.sort()).toEqual(['/aws/ami', '/cidrs', '/plain', '/zones']);
  });

  it('leaves skipped parameters unresolved', async () => {
    const resolved = await resolveParameters(
      template,
      {},
      { ssmParameter, skip: new Set(['Secret', 'Ami']) },
    );
    expect(resolved.values.has('Secret')).toBe(false);
    expect(resolved.values.has('Ami')).toBe(false);
  });

  it('names the parameter and SSM name when SSM cannot answer', async () => {
    await expectTemplateRejection(
      resolveParameters(template, { Secret: 'x', Plain: '/missing' }, { ssmParameter }),
      'SSM_PARAMETER_UNRESOLVED',
      'Parameters.Plain',
      '/missing',
      'ParameterNotFound',
    );
  });

  it('refuses SSM-typed parameters without a resolver', async () => {
    await expectTemplateRejection(
      resolveParameters(template, { Secret: 'x' }),
      'SSM_PARAMETER_UNRESOLVED',
      'no SSM resolver',
    );
  });

  it('refuses a supplied parameter the template does not declare', async () => {
    await expectTemplateRejection(
      resolveParameters(template, { Nope: 'x' }, { ssmParameter }),
      'PARAMETER_UNKNOWN',
      'Parameters.Nope',
    );
  });

  it('reports a missing required parameter', async () => {
    await expectTemplateRejection(
      resolveParameters(template, {}, { ssmParameter }),
      'PARAMETER_MISSING',
      'Parameters.Secret',
    );
  });
});

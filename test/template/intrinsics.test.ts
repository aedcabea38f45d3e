import { describe, expect, it } from 'vitest';
import { evaluate, KNOWN_INTRINSICS, letterSuffixAZs, rootPath } from '../../src/template/index.js';
import { expectTemplateError, makeContext } from './helpers.js';

const at = rootPath('Resources', 'Fn', 'Properties', 'X');
const run = (value: unknown, overrides = {}) => evaluate(value, makeContext(overrides), at);

describe('intrinsic functions', () => {
  it.each<[string, unknown, unknown]>([
    ['Ref parameter', { Ref: 'Env' }, 'prod'],
    ['Ref list parameter', { Ref: 'Subnets' }, ['subnet-1', 'subnet-2']],
    ['Ref pseudo parameter', { Ref: 'AWS::Region' }, 'eu-west-1'],
    ['Ref resource', { Ref: 'Bucket' }, 'ref:Bucket'],
    ['GetAtt list form', { 'Fn::GetAtt': ['Bucket', 'Arn'] }, 'att:Bucket.Arn'],
    ['GetAtt string form', { 'Fn::GetAtt': 'Bucket.Arn' }, 'att:Bucket.Arn'],
    [
      'GetAtt dotted attribute',
      { 'Fn::GetAtt': ['Queue', 'Endpoint.Address'] },
      'att:Queue.Endpoint.Address',
    ],
    ['GetAtt dotted string form', { 'Fn::GetAtt': 'Queue.Endpoint.Address' }, 'att:Queue.Endpoint.Address'],
    ['GetAtt attribute from Ref', { 'Fn::GetAtt': ['Bucket', { Ref: 'Env' }] }, 'att:Bucket.prod'],
    ['GetAtt list attribute', { 'Fn::GetAtt': ['Vpc', 'Ipv6CidrBlocks'] }, ['2001:db8:1234:1a00::/56']],
    ['Sub string with parameter', { 'Fn::Sub': 'env-${Env}' }, 'env-prod'],
    ['Sub resource and attribute', { 'Fn::Sub': '${Bucket}/${Bucket.Arn}' }, 'ref:Bucket/att:Bucket.Arn'],
    ['Sub dotted attribute', { 'Fn::Sub': '${Queue.Endpoint.Address}' }, 'att:Queue.Endpoint.Address'],
    [
      'Sub pseudo parameters',
      { 'Fn::Sub': 'arn:${AWS::Partition}:s3:::${AWS::AccountId}' },
      'arn:aws:s3:::123456789012',
    ],
    ['Sub literal escape', { 'Fn::Sub': '${!Literal}-${Env}' }, '${Literal}-prod'],
    ['Sub variable map', { 'Fn::Sub': ['${A}-${Env}', { A: { Ref: 'Bucket' } }] }, 'ref:Bucket-prod'],
    ['Sub variable shadows a name', { 'Fn::Sub': ['${Env}', { Env: 'override' }] }, 'override'],
    ['Sub list form without variables', { 'Fn::Sub': ['plain ${Env}'] }, 'plain prod'],
    ['Sub unclosed placeholder is text', { 'Fn::Sub': 'a ${b' }, 'a ${b'],
    ['Join', { 'Fn::Join': ['-', ['a', { Ref: 'Env' }, 3]] }, 'a-prod-3'],
    ['Join over an intrinsic list', { 'Fn::Join': [',', { Ref: 'Subnets' }] }, 'subnet-1,subnet-2'],
    ['Join empty list', { 'Fn::Join': [',', []] }, ''],
    ['Select', { 'Fn::Select': [1, ['a', 'b', 'c']] }, 'b'],
    ['Select string index', { 'Fn::Select': ['0', { Ref: 'Subnets' }] }, 'subnet-1'],
    ['Select index from Ref', { 'Fn::Select': [{ Ref: 'Count' }, ['a', 'b', 'c']] }, 'c'],
    ['Split', { 'Fn::Split': [',', 'a,b,,c'] }, ['a', 'b', '', 'c']],
    ['Select over Split', { 'Fn::Select': [5, { 'Fn::Split': [':', 'arn:aws:sqs:eu-west-1:1:q'] }] }, 'q'],
    ['If true branch', { 'Fn::If': ['IsProd', 'big', 'small'] }, 'big'],
    ['If false branch', { 'Fn::If': ['IsDev', 'big', 'small'] }, 'small'],
    [
      'If skips a removed resource on the other branch',
      { 'Fn::If': ['IsDev', { Ref: 'DevOnly' }, 'none'] },
      'none',
    ],
    [
      'If NoValue removes an object key',
      { A: 1, B: { 'Fn::If': ['IsDev', 2, { Ref: 'AWS::NoValue' }] } },
      { A: 1 },
    ],
    [
      'If NoValue removes a list element',
      ['a', { 'Fn::If': ['IsDev', 'b', { Ref: 'AWS::NoValue' }] }, 'c'],
      ['a', 'c'],
    ],
    ['NoValue inside Join list', { 'Fn::Join': ['-', ['a', { Ref: 'AWS::NoValue' }, 'b']] }, 'a-b'],
    ['Equals strings', { 'Fn::Equals': ['prod', { Ref: 'Env' }] }, true],
    ['Equals number and string', { 'Fn::Equals': [2, { Ref: 'Count' }] }, true],
    ['Equals different', { 'Fn::Equals': ['a', 'b'] }, false],
    ['And', { 'Fn::And': [{ 'Fn::Equals': [1, 1] }, { Condition: 'IsProd' }] }, true],
    ['And false', { 'Fn::And': [{ Condition: 'IsProd' }, { Condition: 'IsDev' }] }, false],
    ['Or', { 'Fn::Or': [{ Condition: 'IsDev' }, { 'Fn::Equals': ['x', 'x'] }] }, true],
    ['Or false', { 'Fn::Or': [{ Condition: 'IsDev' }, { 'Fn::Equals': ['x', 'y'] }] }, false],
    ['Not', { 'Fn::Not': [{ Condition: 'IsProd' }] }, false],
    ['FindInMap', { 'Fn::FindInMap': ['Regions', { Ref: 'AWS::Region' }, 'Ami'] }, 'ami-eu'],
    ['FindInMap list value', { 'Fn::FindInMap': ['Regions', 'eu-west-1', 'Zones'] }, ['a', 'b']],
    [
      'FindInMap DefaultValue',
      { 'Fn::FindInMap': ['Regions', 'us-east-1', 'Ami', { DefaultValue: 'ami-x' }] },
      'ami-x',
    ],
    [
      'FindInMap DefaultValue unused',
      { 'Fn::FindInMap': ['Regions', 'eu-west-1', 'Ami', { DefaultValue: 'x' }] },
      'ami-eu',
    ],
    [
      'Base64',
      { 'Fn::Base64': { 'Fn::Sub': '#!/bin/sh\necho ${Env}' } },
      Buffer.from('#!/bin/sh\necho prod').toString('base64'),
    ],
    ['GetAZs empty means this region', { 'Fn::GetAZs': '' }, ['eu-west-1a', 'eu-west-1b', 'eu-west-1c']],
    ['GetAZs named region', { 'Fn::GetAZs': 'us-east-2' }, ['us-east-2a', 'us-east-2b', 'us-east-2c']],
    ['GetAZs from Ref', { 'Fn::Select': [0, { 'Fn::GetAZs': { Ref: 'AWS::Region' } }] }, 'eu-west-1a'],
    ['ImportValue', { 'Fn::ImportValue': 'Shared-VpcId' }, 'vpc-123'],
    ['ImportValue with Sub', { 'Fn::ImportValue': { 'Fn::Sub': 'Shared-VpcId' } }, 'vpc-123'],
    ['Cidr', { 'Fn::Cidr': ['10.0.0.0/16', 2, 8] }, ['10.0.0.0/24', '10.0.1.0/24']],
    ['Length', { 'Fn::Length': { Ref: 'Subnets' } }, 2],
    ['Length literal list', { 'Fn::Length': [1, 2, 3] }, 3],
    ['ToJsonString', { 'Fn::ToJsonString': { a: { Ref: 'Env' }, b: [1] } }, '{"a":"prod","b":[1]}'],
    [
      'plain data is copied',
      { Tags: [{ Key: 'k', Value: 'v' }], Condition: { StringEquals: { a: 'b' } } },
      { Tags: [{ Key: 'k', Value: 'v' }], Condition: { StringEquals: { a: 'b' } } },
    ],
    [
      'nested intrinsics',
      { 'Fn::Join': ['', [{ 'Fn::Select': [0, { 'Fn::Split': ['/', { 'Fn::Sub': '${Env}/x' }] }] }, '!']] },
      'prod!',
    ],
  ])('%s', (_name, input, expected) => {
    expect(run(input)).toEqual(expected);
  });

  it('uses a caller-supplied GetAZs lookup', () => {
    expect(run({ 'Fn::GetAZs': '' }, { getAZs: (r: string) => [`${r}-az1`] })).toEqual(['eu-west-1-az1']);
    expect(run({ 'Fn::GetAZs': 'us-west-2' }, { getAZs: letterSuffixAZs(5) })).toEqual([
      'us-west-2a',
      'us-west-2b',
      'us-west-2c',
      'us-west-2d',
      'us-west-2e',
    ]);
  });

  it('returns undefined for a top-level AWS::NoValue', () => {
    expect(run({ Ref: 'AWS::NoValue' })).toBeUndefined();
  });

  it('does not change the template it evaluates', () => {
    const input = { A: [{ Ref: 'Env' }], B: { 'Fn::If': ['IsDev', 1, { Ref: 'AWS::NoValue' }] } };
    const copy = structuredClone(input);
    run(input);
    expect(input).toEqual(copy);
  });

  it('keeps a "__proto__" key as data', () => {
    const input = JSON.parse('{"__proto__": {"Ref": "Env"}}');
    const result = run(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe('prod');
  });

  it('lists every supported intrinsic', () => {
    expect(KNOWN_INTRINSICS).toEqual(
      expect.arrayContaining(['Fn::Cidr', 'Fn::Length', 'Fn::ToJsonString', 'Ref']),
    );
  });
});

describe('intrinsic function errors name the path and the problem', () => {
  const P = 'Resources.Fn.Properties.X';
  it.each<[string, unknown, string, string[]]>([
    [
      'Select out of range',
      { 'Fn::Select': [3, ['a', 'b']] },
      'TEMPLATE_EVALUATION_ERROR',
      [`${P}: Fn::Select index 3 out of range (list has 2)`],
    ],
    [
      'Select negative',
      { 'Fn::Select': [-1, ['a']] },
      'TEMPLATE_EVALUATION_ERROR',
      ['index -1 out of range'],
    ],
    [
      'Select non-integer index',
      { 'Fn::Select': ['x', ['a']] },
      'TEMPLATE_EVALUATION_ERROR',
      [`${P}.Fn::Select[0]`, 'index must be an integer'],
    ],
    [
      'Select over a string',
      { 'Fn::Select': [0, 'abc'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['second argument must be a list, got a string'],
    ],
    [
      'Select wrong arity',
      { 'Fn::Select': [0] },
      'TEMPLATE_EVALUATION_ERROR',
      [`${P}: Fn::Select expects a list of 2 arguments, got 1`],
    ],
    [
      'Join with a nested list',
      { 'Fn::Join': [',', [['a']]] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Join element 0 must be a string, got a list'],
    ],
    [
      'Join over a string',
      { 'Fn::Join': [',', 'abc'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Join second argument must be a list'],
    ],
    [
      'Split empty delimiter',
      { 'Fn::Split': ['', 'abc'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['delimiter must not be empty'],
    ],
    [
      'Split of a list',
      { 'Fn::Split': [',', ['a']] },
      'TEMPLATE_EVALUATION_ERROR',
      [`${P}.Fn::Split[1]`, 'source must be a string'],
    ],
    [
      'Ref unknown name',
      { Ref: 'Nope' },
      'INVALID_REFERENCE',
      [`${P}: Ref to "Nope"`, 'no parameter, pseudo parameter or resource'],
    ],
    [
      'Ref removed resource',
      { Ref: 'DevOnly' },
      'INVALID_REFERENCE',
      ['"DevOnly"', 'condition IsDev is false'],
    ],
    [
      'Ref unknown pseudo parameter',
      { Ref: 'AWS::Nope' },
      'TEMPLATE_EVALUATION_ERROR',
      ['unknown pseudo parameter "AWS::Nope"'],
    ],
    ['Ref non-string', { Ref: ['a'] }, 'TEMPLATE_EVALUATION_ERROR', ['Ref expects a name, got a list']],
    [
      'GetAtt without dot',
      { 'Fn::GetAtt': 'Bucket' },
      'TEMPLATE_EVALUATION_ERROR',
      ['"LogicalId.Attribute"'],
    ],
    [
      'GetAtt unknown resource',
      { 'Fn::GetAtt': ['Nope', 'Arn'] },
      'INVALID_REFERENCE',
      ['Fn::GetAtt to "Nope"'],
    ],
    ['Sub unknown name', { 'Fn::Sub': '${Nope}' }, 'INVALID_REFERENCE', ['Fn::Sub to "Nope"']],
    [
      'Sub list-valued name',
      { 'Fn::Sub': '${Subnets}' },
      'TEMPLATE_EVALUATION_ERROR',
      ['value of ${Subnets} must be a string, got a list'],
    ],
    [
      'Sub bad variable map',
      { 'Fn::Sub': ['x', ['y']] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Sub variables must be an object'],
    ],
    [
      'If unknown condition',
      { 'Fn::If': ['Nope', 1, 2] },
      'TEMPLATE_INVALID',
      [`${P}.Fn::If[0]`, 'condition "Nope" is not defined'],
    ],
    [
      'If condition not a name',
      { 'Fn::If': [{ Ref: 'Env' }, 1, 2] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::If condition must be a condition name'],
    ],
    [
      'And with one operand',
      { 'Fn::And': [{ Condition: 'IsProd' }] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::And expects a list of 2 to 10 arguments, got 1'],
    ],
    [
      'Or with eleven operands',
      { 'Fn::Or': Array(11).fill({ Condition: 'IsDev' }) },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Or expects a list of 2 to 10 arguments, got 11'],
    ],
    [
      'Not with a string',
      { 'Fn::Not': ['yes'] },
      'TEMPLATE_EVALUATION_ERROR',
      [`${P}.Fn::Not[0]`, 'expected a condition'],
    ],
    [
      'FindInMap missing map',
      { 'Fn::FindInMap': ['Nope', 'a', 'b'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['no mapping "Nope"'],
    ],
    [
      'FindInMap missing top key',
      { 'Fn::FindInMap': ['Regions', 'us-east-1', 'Ami'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['no key "us-east-1" in mapping "Regions"'],
    ],
    [
      'FindInMap missing second key',
      { 'Fn::FindInMap': ['Regions', 'eu-west-1', 'Nope'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['no key "Nope" under "eu-west-1"'],
    ],
    [
      'FindInMap prototype key',
      { 'Fn::FindInMap': ['Regions', 'constructor', 'name'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['no key "constructor"'],
    ],
    [
      'FindInMap bad options',
      { 'Fn::FindInMap': ['Regions', 'a', 'b', { Default: 1 }] },
      'TEMPLATE_EVALUATION_ERROR',
      ['{ DefaultValue: ... }'],
    ],
    [
      'ImportValue missing export',
      { 'Fn::ImportValue': 'Nope' },
      'IMPORT_NOT_FOUND',
      [`${P}: Fn::ImportValue`, '"Nope"'],
    ],
    [
      'Base64 of a list',
      { 'Fn::Base64': ['a'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Base64 argument must be a string'],
    ],
    [
      'Length of a string',
      { 'Fn::Length': 'abc' },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Length argument must be a list'],
    ],
    [
      'Cidr bad block',
      { 'Fn::Cidr': ['10.0.0/16', 1, 8] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Cidr: "10.0.0/16" is not an IPv4 or IPv6 CIDR block'],
    ],
    [
      'unknown intrinsic',
      { Wrapper: { 'Fn::Nope': [1] } },
      'UNKNOWN_INTRINSIC',
      [`${P}.Wrapper: unknown intrinsic function Fn::Nope`],
    ],
    [
      'rule function outside Rules',
      { 'Fn::Contains': [['a'], 'a'] },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Contains is only valid inside Rules'],
    ],
    [
      'macro',
      { 'Fn::Transform': { Name: 'AWS::Include' } },
      'TEMPLATE_EVALUATION_ERROR',
      ['Fn::Transform needs a CloudFormation macro'],
    ],
  ])('%s', (_name, input, code, parts) => {
    expectTemplateError(() => run(input), code, ...parts);
  });

  it('refuses resource references where no resolver is given', () => {
    expectTemplateError(
      () =>
        run(
          { Ref: 'Bucket' },
          { resources: undefined, referenceScope: 'Conditions can only reference parameters' },
        ),
      'TEMPLATE_EVALUATION_ERROR',
      'Ref to "Bucket": not a parameter or pseudo parameter (Conditions can only reference parameters)',
    );
  });
});

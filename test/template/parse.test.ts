import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../src/errors.js';
import { parseTemplate, parseTemplateText } from '../../src/template/index.js';
import { jsonErrorOffset } from '../../src/template/json-location.js';
import { expectTemplateError } from './helpers.js';

function parseError(text: string, file: string) {
  try {
    parseTemplateText(text, file);
  } catch (error) {
    if (isCdkdError(error)) return error;
    throw error;
  }
  throw new Error('expected a parse error');
}

describe('YAML short forms', () => {
  it.each<[string, string, unknown]>([
    ['!Ref', '!Ref Bucket', { Ref: 'Bucket' }],
    ['!GetAtt string', '!GetAtt Bucket.Arn', { 'Fn::GetAtt': ['Bucket', 'Arn'] }],
    ['!GetAtt dotted attribute', '!GetAtt Db.Endpoint.Address', { 'Fn::GetAtt': ['Db', 'Endpoint.Address'] }],
    ['!GetAtt list', '!GetAtt [Bucket, Arn]', { 'Fn::GetAtt': ['Bucket', 'Arn'] }],
    ['!Sub string', '!Sub "${AWS::Region}-x"', { 'Fn::Sub': '${AWS::Region}-x' }],
    ['!Sub list', '!Sub ["${A}", {A: !Ref B}]', { 'Fn::Sub': ['${A}', { A: { Ref: 'B' } }] }],
    ['!Join', '!Join ["-", [a, !Ref B]]', { 'Fn::Join': ['-', ['a', { Ref: 'B' }]] }],
    ['!Select', '!Select [0, !GetAZs ""]', { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] }],
    ['!Split', '!Split [",", "a,b"]', { 'Fn::Split': [',', 'a,b'] }],
    ['!If', '!If [C, a, !Ref AWS::NoValue]', { 'Fn::If': ['C', 'a', { Ref: 'AWS::NoValue' }] }],
    ['!Equals', '!Equals [!Ref E, prod]', { 'Fn::Equals': [{ Ref: 'E' }, 'prod'] }],
    ['!And', '!And [!Condition A, !Condition B]', { 'Fn::And': [{ Condition: 'A' }, { Condition: 'B' }] }],
    ['!Or', '!Or [!Condition A, !Condition B]', { 'Fn::Or': [{ Condition: 'A' }, { Condition: 'B' }] }],
    ['!Not', '!Not [!Condition A]', { 'Fn::Not': [{ Condition: 'A' }] }],
    ['!Condition', '!Condition A', { Condition: 'A' }],
    [
      '!FindInMap',
      '!FindInMap [M, !Ref AWS::Region, K]',
      { 'Fn::FindInMap': ['M', { Ref: 'AWS::Region' }, 'K'] },
    ],
    ['!Base64', '!Base64 hello', { 'Fn::Base64': 'hello' }],
    ['!Base64 of !Sub', '!Base64 {"Fn::Sub": "x"}', { 'Fn::Base64': { 'Fn::Sub': 'x' } }],
    ['!GetAZs', '!GetAZs ""', { 'Fn::GetAZs': '' }],
    ['!Cidr', '!Cidr [10.0.0.0/16, 2, 8]', { 'Fn::Cidr': ['10.0.0.0/16', 2, 8] }],
    ['!ImportValue', '!ImportValue Shared', { 'Fn::ImportValue': 'Shared' }],
    ['!ImportValue of !Sub', '!ImportValue {"Fn::Sub": "x"}', { 'Fn::ImportValue': { 'Fn::Sub': 'x' } }],
    ['!Length', '!Length [1, 2]', { 'Fn::Length': [1, 2] }],
    ['!ToJsonString', '!ToJsonString {a: 1}', { 'Fn::ToJsonString': { a: 1 } }],
  ])('%s', (_tag, yaml, expected) => {
    const parsed = parseTemplateText(
      `Resources:\n  R:\n    Type: T\n    Properties:\n      P: ${yaml}\n`,
      't.yaml',
    );
    expect(parsed).toEqual({ Resources: { R: { Type: 'T', Properties: { P: expected } } } });
  });

  it('reads a block-scalar !Sub', () => {
    const text = 'Outputs:\n  O:\n    Value: !Sub |\n      line ${AWS::Region}\n';
    expect(parseTemplateText(text, 't.yaml')).toEqual({
      Outputs: { O: { Value: { 'Fn::Sub': 'line ${AWS::Region}\n' } } },
    });
  });
});

describe('malformed templates', () => {
  it('names the file, line and column of bad JSON', () => {
    const error = parseError('{\n  "Resources": {\n    "A": }\n}', 'stack.template.json');
    expect(error.code).toBe('TEMPLATE_PARSE_ERROR');
    expect(error.message).toMatch(/^stack\.template\.json:3:10: invalid JSON/);
  });

  it('names the file, line and column of bad YAML', () => {
    const error = parseError('Resources:\n  A:\n    Type: [unclosed\n', 'stack.yaml');
    expect(error.code).toBe('TEMPLATE_PARSE_ERROR');
    expect(error.message).toMatch(/^stack\.yaml:\d+:\d+: invalid YAML/);
  });

  it('rejects duplicate YAML keys', () => {
    const error = parseError('Resources: {}\nResources: {}\n', 'dup.yaml');
    expect(error.code).toBe('TEMPLATE_PARSE_ERROR');
    expect(error.message).toContain('dup.yaml:2:1');
  });
});

describe('JSON error offsets', () => {
  it.each<[string, number | undefined]>([
    ['{"a": [1, 2, {"b": null}], "c": "x\\"y", "d": -1.5e3, "e": true}', undefined],
    ['{"a": }', 6],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['[1, 2', 5],
    ['{"a": "unterminated', 19],
    ['{"a": tru}', 6],
    ['{} extra', 3],
    ['{"a": 01}', 7],
  ])('%s → %s', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });
});

describe('structure validation names the path', () => {
  it.each<[string, unknown, string]>([
    ['not an object', [], 'a template must be a JSON/YAML object'],
    ['unknown section', { Resource: {} }, 'Resource: unknown top-level section "Resource"'],
    ['Resources not an object', { Resources: [] }, 'Resources: must be an object'],
    ['resource not an object', { Resources: { A: 'x' } }, 'Resources.A: must be an object'],
    [
      'resource without Type',
      { Resources: { A: { Properties: {} } } },
      'Resources.A.Type: must be a non-empty string',
    ],
    ['Type not a string', { Resources: { A: { Type: 1 } } }, 'Resources.A.Type: must be a non-empty string'],
    [
      'Properties not an object',
      { Resources: { A: { Type: 'T', Properties: [] } } },
      'Resources.A.Properties: must be an object',
    ],
    [
      'DependsOn not ids',
      { Resources: { A: { Type: 'T', DependsOn: [1] } } },
      'Resources.A.DependsOn: must be a logical id',
    ],
    [
      'Condition not a string',
      { Resources: { A: { Type: 'T', Condition: {} } } },
      'Resources.A.Condition: must be a string',
    ],
    ['parameter without Type', { Parameters: { P: {} } }, 'Parameters.P.Type: must be a string'],
    [
      'AllowedValues not a list',
      { Parameters: { P: { Type: 'String', AllowedValues: 'a' } } },
      'Parameters.P.AllowedValues: must be a list',
    ],
    [
      'MinLength not a number',
      { Parameters: { P: { Type: 'String', MinLength: 'x' } } },
      'Parameters.P.MinLength: must be a number',
    ],
    ['output without Value', { Outputs: { O: {} } }, 'Outputs.O.Value: is required'],
    [
      'Export without Name',
      { Outputs: { O: { Value: 'v', Export: {} } } },
      'Outputs.O.Export: must be an object with Name',
    ],
    [
      'condition not an object',
      { Conditions: { C: true } },
      'Conditions.C: must be a condition function object',
    ],
    ['mapping level not an object', { Mappings: { M: { K: 'v' } } }, 'Mappings.M.K: must be an object'],
    ['rule without Assertions', { Rules: { R: {} } }, 'Rules.R.Assertions: must be a list'],
    [
      'assertion without Assert',
      { Rules: { R: { Assertions: [{}] } } },
      'Rules.R.Assertions[0]: must be an object with Assert',
    ],
    ['bad Transform', { Transform: [1] }, 'Transform[0]: must be a transform name'],
  ])('%s', (_name, raw, message) => {
    expectTemplateError(
      () => parseTemplate(JSON.stringify(raw), 'x.json'),
      'TEMPLATE_INVALID',
      message,
      '(in x.json)',
    );
  });

  it('builds the typed model', () => {
    const template = parseTemplate(
      JSON.stringify({
        Transform: 'AWS::LanguageExtensions',
        Parameters: { P: { Type: 'String', NoEcho: 'true', MinLength: '2' } },
        Resources: {
          A: { Type: 'AWS::S3::Bucket', DependsOn: 'B', DeletionPolicy: 'Retain', Metadata: { m: 1 } },
          B: { Type: 'AWS::SQS::Queue', Condition: 'C', Properties: { X: 1 } },
        },
        Conditions: { C: { 'Fn::Equals': [1, 1] } },
        Outputs: { O: { Value: 'v', Export: { Name: 'E' }, Condition: 'C' } },
      }),
    );
    expect(template.transforms).toEqual(['AWS::LanguageExtensions']);
    expect(template.parameters.get('P')).toMatchObject({ type: 'String', noEcho: true, minLength: 2 });
    expect(template.resources.get('A')).toMatchObject({
      type: 'AWS::S3::Bucket',
      dependsOn: ['B'],
      properties: {},
      deletionPolicy: 'Retain',
      metadata: { m: 1 },
    });
    expect(template.resources.get('B')).toMatchObject({
      condition: 'C',
      properties: { X: 1 },
      dependsOn: [],
    });
    expect(template.outputs.get('O')).toMatchObject({ value: 'v', exportName: 'E', condition: 'C' });
    expect([...template.resources.keys()]).toEqual(['A', 'B']);
  });

  it('accepts a template with no Resources (CDK synthesizes empty stacks)', () => {
    expect(parseTemplate('{"Outputs": {"O": {"Value": "v"}}}').resources.size).toBe(0);
  });
});

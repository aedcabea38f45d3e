import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { propertyProblems } from '../../src/plan/validate-properties.js';
import { staticExportNames } from '../../src/template/export-names.js';
import { limitsExceeded } from '../../src/template/template-limits.js';
import { subPlaceholders } from '../../src/template/validate-intrinsics.js';
import { templateProblems } from '../../src/template/validate-template.js';
import { corpusDir, describeCorpus } from '../template/corpus-support.js';

const resources = (extra: Record<string, unknown>) => ({
  Resources: { Topic: { Type: 'AWS::SNS::Topic' }, ...extra },
});
const topicNamed = (name: unknown) =>
  resources({ Named: { Type: 'AWS::SNS::Topic', Properties: { TopicName: name } } });

/** `path: message` of every problem, for compact expectations. */
const problems = (template: unknown) => templateProblems(template).map((p) => `${p.path}: ${p.message}`);

describe('templateProblems: one row per kind of template CloudFormation refuses', () => {
  it.each([
    ['no Resources', {}, 'Resources: At least one Resources member must be defined'],
    ['Resources {}', { Resources: {} }, 'Resources: At least one Resources member must be defined'],
    ['Resources a string', { Resources: 'x' }, 'Resources: must be an object'],
    ['a template that is a list', [], ': a template must be a JSON object'],
    [
      'a non-alphanumeric resource id',
      resources({ 'a-b': { Type: 'AWS::SNS::Topic' } }),
      'Resources.a-b: Resource name "a-b" is non alphanumeric',
    ],
    [
      'a non-alphanumeric parameter',
      { ...resources({}), Parameters: { 'p.1': { Type: 'String' } } },
      'Parameters.p.1: Parameter name "p.1" is non alphanumeric',
    ],
    [
      'a 256-character id',
      resources({ ['A'.repeat(256)]: { Type: 'AWS::SNS::Topic' } }),
      `Resources.${'A'.repeat(256)}: Resource name "${'A'.repeat(60)}…" is longer than 255 characters (256)`,
    ],
    [
      'Ref to nothing',
      topicNamed({ Ref: 'Nope' }),
      'Resources.Named.Properties.TopicName.Ref: Unresolved resource dependencies [Nope] in Ref: no resource or parameter has that name',
    ],
    [
      'Ref that is not a string',
      topicNamed({ Ref: ['Topic'] }),
      'Resources.Named.Properties.TopicName.Ref: Ref takes a logical id or parameter name',
    ],
    [
      'GetAtt of a parameter',
      { ...topicNamed({ 'Fn::GetAtt': ['P', 'Arn'] }), Parameters: { P: { Type: 'String' } } },
      'Resources.Named.Properties.TopicName.Fn::GetAtt: Fn::GetAtt names P, which is not a resource of this template',
    ],
    [
      'GetAtt of three elements',
      topicNamed({ 'Fn::GetAtt': ['Topic', 'A', 'B'] }),
      'Resources.Named.Properties.TopicName.Fn::GetAtt: Fn::GetAtt takes "LogicalId.Attribute" or [LogicalId, Attribute]',
    ],
    [
      'Sub unclosed',
      topicNamed({ 'Fn::Sub': 'a-${Topic' }),
      'Resources.Named.Properties.TopicName.Fn::Sub: Fn::Sub string has an unclosed "${" at character 2: "${Topic"',
    ],
    [
      'Sub unclosed in the list form',
      topicNamed({ 'Fn::Sub': ['${X', { X: 'y' }] }),
      'Resources.Named.Properties.TopicName.Fn::Sub[0]: Fn::Sub string has an unclosed "${" at character 0: "${X"',
    ],
    [
      'Sub variables as a list',
      topicNamed({ 'Fn::Sub': ['${X}', ['y']] }),
      'Resources.Named.Properties.TopicName.Fn::Sub[1]: Fn::Sub variables must be a map',
    ],
    [
      'Sub of a number',
      topicNamed({ 'Fn::Sub': 5 }),
      'Resources.Named.Properties.TopicName.Fn::Sub: Fn::Sub takes a string',
    ],
    [
      'Join with a list delimiter',
      topicNamed({ 'Fn::Join': [[','], ['a']] }),
      'Resources.Named.Properties.TopicName.Fn::Join[0]: Fn::Join takes a delimiter string first',
    ],
    [
      'Join over a string',
      topicNamed({ 'Fn::Join': [',', 'a'] }),
      'Resources.Named.Properties.TopicName.Fn::Join[1]: Fn::Join takes a list second',
    ],
    [
      'Split with one argument',
      topicNamed({ 'Fn::Split': [','] }),
      'Resources.Named.Properties.TopicName.Fn::Split: Fn::Split takes a list of 2 arguments',
    ],
    [
      'Not of two',
      { ...resources({}), Conditions: { C: { 'Fn::Not': [true, false] } } },
      'Conditions.C.Fn::Not: Fn::Not takes a list of 1 arguments',
    ],
    [
      'And of eleven',
      { ...resources({}), Conditions: { C: { 'Fn::And': Array(11).fill(true) } } },
      'Conditions.C.Fn::And: Fn::And takes a list of 2 to 10 arguments',
    ],
    [
      'FindInMap of two',
      topicNamed({ 'Fn::FindInMap': ['M', 'k'] }),
      'Resources.Named.Properties.TopicName.Fn::FindInMap: Fn::FindInMap takes a list of 3 to 4 arguments',
    ],
    [
      'ImportValue of a list',
      topicNamed({ 'Fn::ImportValue': ['x'] }),
      'Resources.Named.Properties.TopicName.Fn::ImportValue: Fn::ImportValue takes a string or a function returning one',
    ],
    [
      'an unknown function',
      topicNamed({ 'Fn::Frobnicate': [] }),
      'Resources.Named.Properties.TopicName.Fn::Frobnicate: Encountered unsupported function: Fn::Frobnicate',
    ],
    [
      'a Rules-only function',
      topicNamed({ 'Fn::Contains': [['a'], 'a'] }),
      'Resources.Named.Properties.TopicName.Fn::Contains: Fn::Contains is only valid inside Rules',
    ],
    [
      'If on an unknown condition',
      topicNamed({ 'Fn::If': ['C', 'a', 'b'] }),
      'Resources.Named.Properties.TopicName.Fn::If[0]: Unresolved condition dependency C in Fn::If',
    ],
    [
      'a Condition reading a resource',
      { ...resources({}), Conditions: { C: { 'Fn::Equals': [{ Ref: 'Topic' }, 'x'] } } },
      'Conditions.C.Fn::Equals[0].Ref: Ref Topic: Conditions cannot reference resources',
    ],
    [
      'DependsOn nothing',
      resources({ D: { Type: 'AWS::SNS::Topic', DependsOn: ['Topic', 'Ghost'] } }),
      'Resources.D.DependsOn: Unresolved resource dependencies [Ghost] in the Resources block of the template',
    ],
    [
      'a resource Condition that is not declared',
      resources({ D: { Type: 'AWS::SNS::Topic', Condition: 'C' } }),
      'Resources.D.Condition: Unresolved dependencies [C]: no condition has that name',
    ],
    [
      'an output Export reading nothing',
      { ...resources({}), Outputs: { O: { Value: 'v', Export: { Name: { Ref: 'X' } } } } },
      'Outputs.O.Export.Name.Ref: Unresolved resource dependencies [X] in Ref: no resource or parameter has that name',
    ],
    [
      'an export name that is a list',
      { ...resources({}), Outputs: { O: { Value: 'v', Export: { Name: ['x'] } } } },
      'Outputs.O.Export.Name: an export name must be a string',
    ],
    [
      'an unknown section (structure)',
      { ...resources({}), Extra: {} },
      'Extra: unknown top-level section "Extra"',
    ],
  ])('%s', (_name, template, expected) => {
    expect(problems(template)).toEqual([expected]);
  });

  it.each([
    [
      'pseudo parameters, parameters, GetAtt, Sub variables and ${!Literal}',
      {
        Parameters: { P: { Type: 'String' } },
        Conditions: { C: { 'Fn::Equals': [{ Ref: 'P' }, { Ref: 'AWS::Region' }] } },
        ...topicNamed({
          'Fn::If': [
            'C',
            {
              'Fn::Sub': [
                '${AWS::StackName}-${P}-${Topic.TopicName}-${V}-${!Lit}',
                { V: { 'Fn::GetAtt': 'Topic.TopicName' } },
              ],
            },
            { Ref: 'AWS::NoValue' },
          ],
        }),
      },
    ],
    ['a macro function left for the transform', topicNamed({ 'Fn::Transform': { Name: 'M' } })],
    [
      'a GetAtt whose attribute is a Ref',
      { ...topicNamed({ 'Fn::GetAtt': ['Topic', { Ref: 'A' }] }), Parameters: { A: { Type: 'String' } } },
    ],
  ])('accepts %s', (_name, template) => {
    expect(problems(template)).toEqual([]);
  });
});

describe('subPlaceholders', () => {
  it.each([
    ['plain text', [], []],
    ['${A}-${B.Arn}', ['A', 'B.Arn'], []],
    ['${!Literal}-${ A }', ['A'], []],
    ['${A', [], ['Fn::Sub string has an unclosed "${" at character 0: "${A"']],
    ['${}', [], ['Fn::Sub string has an empty "${}" at character 0']],
  ])('%j', (text, names, reported) => {
    const found: string[] = [];
    expect(subPlaceholders(text, (message) => found.push(message))).toEqual(names);
    expect(found).toEqual(reported);
  });
});

describe('propertyProblems: the bundled schema index, where it is sure', () => {
  const parameter = (properties: Record<string, unknown>) => ({
    P: { Type: 'AWS::SSM::Parameter', Properties: properties },
  });
  const queue = (properties: Record<string, unknown>) => ({
    Q: { Type: 'AWS::SQS::Queue', Properties: properties },
  });
  it.each([
    [
      'a missing required property',
      parameter({ Type: 'String' }),
      [
        'Resources.P.Properties: Properties validation failed for resource P with message: #: required key [Value] not found',
      ],
    ],
    [
      'no Properties at all',
      { P: { Type: 'AWS::SSM::Parameter' } },
      [
        'Resources.P.Properties: Properties validation failed for resource P with message: #: required key [Type, Value] not found',
      ],
    ],
    [
      'a list for a string',
      parameter({ Type: 'String', Value: ['a'] }),
      [
        'Resources.P.Properties.Value: Properties validation failed for resource P with message: #/Value: expected type: String, found: JSONArray',
      ],
    ],
    [
      'an object for a number',
      queue({ DelaySeconds: { a: 1 } }),
      [
        'Resources.Q.Properties.DelaySeconds: Properties validation failed for resource Q with message: #/DelaySeconds: expected type: Number, found: JSONObject',
      ],
    ],
    [
      'a word for a boolean',
      queue({ FifoQueue: 'yes' }),
      [
        'Resources.Q.Properties.FifoQueue: Properties validation failed for resource Q with message: #/FifoQueue: expected type: Boolean, found: String',
      ],
    ],
    [
      'a string for a list',
      queue({ Tags: 'k=v' }),
      [
        'Resources.Q.Properties.Tags: Properties validation failed for resource Q with message: #/Tags: expected type: JSONArray, found: String',
      ],
    ],
    [
      'a tag whose Value is an object',
      queue({ Tags: [{ Key: 'k', Value: { a: 1 } }] }),
      [
        'Resources.Q.Properties.Tags.0.Value: Properties validation failed for resource Q with message: #/Tags/0/Value: expected type: String, found: JSONObject',
      ],
    ],
    [
      'a tag without a Key',
      queue({ Tags: [{ Value: 'v' }] }),
      [
        'Resources.Q.Properties.Tags.0.Key: Properties validation failed for resource Q with message: #/Tags/0/Key: expected type: String, found: nothing',
      ],
    ],
    [
      'a list in a list of strings',
      {
        F: {
          Type: 'AWS::Lambda::Function',
          Properties: { Code: {}, Role: 'r', Architectures: [['x86_64']] },
        },
      },
      [
        'Resources.F.Properties.Architectures.0: Properties validation failed for resource F with message: #/Architectures/0: expected type: String, found: JSONArray',
      ],
    ],
    [
      'null for a number',
      queue({ DelaySeconds: null }),
      [
        'Resources.Q.Properties.DelaySeconds: Properties validation failed for resource Q with message: #/DelaySeconds: expected type: Number, found: Null',
      ],
    ],
  ])('refuses %s', (_name, resources, expected) => {
    expect(propertyProblems(resources).map((p) => `${p.path}: ${p.message}`)).toEqual(expected);
  });

  it.each([
    [
      'numbers and booleans as strings, as CloudFormation coerces them',
      queue({ DelaySeconds: '5', FifoQueue: 'true', QueueName: 12 }),
    ],
    [
      'values of intrinsic functions',
      queue({ DelaySeconds: { Ref: 'D' }, Tags: { 'Fn::If': ['C', [], []] } }),
    ],
    ['a dynamic reference', queue({ DelaySeconds: '{{resolve:ssm:delay}}' })],
    [
      'a property whose type changed over time (RedrivePolicy: JSON or string)',
      queue({ RedrivePolicy: 'x' }),
    ],
    ['a type the index does not know', { C: { Type: 'Custom::Thing', Properties: { Anything: [1] } } }],
    [
      'Properties given by an intrinsic',
      { P: { Type: 'AWS::SSM::Parameter', Properties: { 'Fn::If': ['C', {}, {}] } } },
    ],
  ])('accepts %s', (_name, resources) => {
    expect(propertyProblems(resources)).toEqual([]);
  });
});

describe('staticExportNames and limitsExceeded', () => {
  it('knows the names built from literals, pseudo parameters and mappings, and leaves the rest out', () => {
    const template = {
      Mappings: { M: { us: { name: 'mapped' } } },
      Parameters: { P: { Type: 'String' } },
      Outputs: {
        A: { Value: 'v', Export: { Name: 'literal' } },
        B: { Value: 'v', Export: { Name: { 'Fn::Sub': '${AWS::StackName}:${AWS::Region}' } } },
        C: { Value: 'v', Export: { Name: { 'Fn::FindInMap': ['M', 'us', 'name'] } } },
        D: { Value: 'v', Export: { Name: { Ref: 'P' } } },
        E: { Value: 'v', Export: { Name: 'conditional' }, Condition: 'X' },
        F: { Value: 'v' },
      },
    };
    expect(staticExportNames(template, { accountId: '1', region: 'eu-west-1', stackName: 'S' })).toEqual([
      { output: 'A', name: 'literal' },
      { output: 'B', name: 'S:eu-west-1' },
      { output: 'C', name: 'mapped' },
    ]);
  });

  it('names each CloudFormation limit a template is above, and none at the limit', () => {
    const many = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`X${i}`, { Type: 'T', Value: 'v' }]));
    expect(limitsExceeded({ Resources: many(500), Outputs: many(200), Parameters: many(200) })).toEqual([]);
    expect(limitsExceeded({ Resources: many(501), Outputs: many(201), Parameters: many(201) })).toEqual([
      '501 resources (limit 500)',
      '201 outputs (limit 200)',
      '201 parameters (limit 200)',
    ]);
    const big = { Resources: { A: { Type: 'T', Properties: { Big: 'x'.repeat(1024 * 1024) } } } };
    const bytes = Buffer.byteLength(JSON.stringify(big));
    expect(limitsExceeded(big)).toEqual([
      `${bytes.toLocaleString('en-US')} bytes of template (limit 1,048,576)`,
    ]);
  });
});

describeCorpus('the CDK corpus', () => {
  it('passes every check, except the templates CDK wrote without Resources', () => {
    const refused: string[] = [];
    const files = readdirSync(corpusDir).filter((file) => file.endsWith('.template.json'));
    expect(files.length).toBeGreaterThan(1000);
    for (const file of files) {
      const raw = JSON.parse(readFileSync(join(corpusDir, file), 'utf8')) as Record<string, unknown>;
      const found = [
        ...templateProblems(raw),
        ...propertyProblems((raw.Resources ?? {}) as Record<string, unknown>),
      ];
      if (found.length === 0) continue;
      expect(raw.Resources, file).toBeUndefined();
      expect(found.map((p) => p.message)).toEqual(['At least one Resources member must be defined']);
      refused.push(file);
    }
    expect(refused).toHaveLength(18);
  });
});

import { describe, expect, it } from 'vitest';
import {
  evaluateRules,
  parseTemplate,
  prepareTemplate,
  buildPseudoParameters,
  type RuleLookups,
} from '../../src/template/index.js';
import { expectTemplateError, expectTemplateRejection } from './helpers.js';

const pseudo = { accountId: '123456789012', region: 'us-east-1', stackName: 'S' };

function runRule(rule: unknown, lookups?: RuleLookups) {
  const template = parseTemplate(
    JSON.stringify({
      Parameters: {
        Env: { Type: 'String', Default: 'prod' },
        Subnets: { Type: 'CommaDelimitedList', Default: 'a,b' },
      },
      Rules: { R: rule },
    }),
  );
  evaluateRules(
    template,
    {
      parameters: new Map<string, string | string[]>([
        ['Env', 'prod'],
        ['Subnets', ['a', 'b']],
      ]),
      pseudo: buildPseudoParameters(pseudo),
      mappings: new Map(),
    },
    { lookups },
  );
}

const assert = (Assert: unknown) => ({ Assertions: [{ Assert, AssertDescription: 'the rule said no' }] });

describe('rule functions', () => {
  it.each<[string, unknown, boolean]>([
    ['Contains yes', { 'Fn::Contains': [['prod', 'test'], { Ref: 'Env' }] }, true],
    ['Contains no', { 'Fn::Contains': [['dev'], { Ref: 'Env' }] }, false],
    ['EachMemberEquals yes', { 'Fn::EachMemberEquals': [['a', 'a'], 'a'] }, true],
    ['EachMemberEquals no', { 'Fn::EachMemberEquals': [{ Ref: 'Subnets' }, 'a'] }, false],
    ['EachMemberIn yes', { 'Fn::EachMemberIn': [{ Ref: 'Subnets' }, ['a', 'b', 'c']] }, true],
    ['EachMemberIn no', { 'Fn::EachMemberIn': [{ Ref: 'Subnets' }, ['a']] }, false],
    ['Equals', { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] }, true],
    ['Not', { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] }] }, false],
    ['And', { 'Fn::And': [{ 'Fn::Equals': [1, 1] }, { 'Fn::Contains': [['x'], 'x'] }] }, true],
    ['Or', { 'Fn::Or': [{ 'Fn::Equals': [1, 2] }, { 'Fn::Contains': [['x'], 'y'] }] }, false],
  ])('%s', (_name, assertion, holds) => {
    const run = () => runRule(assert(assertion));
    if (holds) expect(run).not.toThrow();
    else expectTemplateError(run, 'RULE_ASSERTION_FAILED', 'Rules.R.Assertions[0]: the rule said no');
  });

  it('skips the assertions when RuleCondition is false', () => {
    expect(() =>
      runRule({
        RuleCondition: { 'Fn::Equals': [{ Ref: 'Env' }, 'dev'] },
        ...assert({ 'Fn::Equals': [1, 2] }),
      }),
    ).not.toThrow();
  });

  it('checks the assertions when RuleCondition is true', () => {
    expectTemplateError(
      () =>
        runRule({
          RuleCondition: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
          ...assert({ 'Fn::Equals': [1, 2] }),
        }),
      'RULE_ASSERTION_FAILED',
    );
  });

  it('uses a default description when none is given', () => {
    expectTemplateError(
      () => runRule({ Assertions: [{ Assert: { 'Fn::Equals': [1, 2] } }] }),
      'RULE_ASSERTION_FAILED',
      'rule R failed',
    );
  });

  it('answers RefAll / ValueOf / ValueOfAll through the lookups', () => {
    const lookups: RuleLookups = {
      refAll: (type) => (type === 'AWS::EC2::VPC::Id' ? ['vpc-1', 'vpc-2'] : []),
      valueOfParameter: (name, attribute) => `${name}:${attribute}`,
      valueOfAll: () => ['prod'],
    };
    expect(() =>
      runRule(
        assert({
          'Fn::And': [
            { 'Fn::Contains': [{ 'Fn::RefAll': 'AWS::EC2::VPC::Id' }, 'vpc-2'] },
            { 'Fn::Equals': [{ 'Fn::ValueOf': ['Env', 'Tags'] }, 'Env:Tags'] },
            { 'Fn::EachMemberEquals': [{ 'Fn::ValueOfAll': ['AWS::EC2::VPC::Id', 'Tags'] }, 'prod'] },
          ],
        }),
        lookups,
      ),
    ).not.toThrow();
  });

  it.each(['Fn::RefAll', 'Fn::ValueOf', 'Fn::ValueOfAll'])(
    '%s without a lookup is RULE_FUNCTION_UNAVAILABLE',
    (fn) => {
      const args = fn === 'Fn::RefAll' ? 'AWS::EC2::VPC::Id' : ['Env', 'Tags'];
      expectTemplateError(
        () => runRule(assert({ 'Fn::Contains': [{ [fn]: args }, 'x'] })),
        'RULE_FUNCTION_UNAVAILABLE',
        fn,
      );
    },
  );

  it('refuses conditions inside rules', () => {
    expectTemplateError(
      () => runRule(assert({ Condition: 'X' })),
      'TEMPLATE_EVALUATION_ERROR',
      'Rules cannot use conditions',
    );
  });
});

describe("CDK's CheckBootstrapVersion rule", () => {
  const cdkTemplate = (extra: Record<string, unknown> = {}) =>
    parseTemplate(
      JSON.stringify({
        Parameters: {
          BootstrapVersion: {
            Type: 'AWS::SSM::Parameter::Value<String>',
            Default: '/cdk-bootstrap/hnb659fds/version',
          },
        },
        Rules: {
          CheckBootstrapVersion: {
            Assertions: [
              {
                Assert: {
                  'Fn::Not': [{ 'Fn::Contains': [['1', '2', '3', '4', '5'], { Ref: 'BootstrapVersion' }] }],
                },
                AssertDescription:
                  "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
              },
            ],
          },
        },
        Resources: { Topic: { Type: 'AWS::SNS::Topic' } },
        ...extra,
      }),
    );
  const noSsm = async (name: string): Promise<string> => {
    throw new Error(`ParameterNotFound: ${name}`);
  };

  it('is skipped by default, without reading the SSM parameter', async () => {
    const prepared = await prepareTemplate(cdkTemplate(), { pseudo, ssmParameter: noSsm });
    expect([...prepared.skippedRules]).toEqual(['CheckBootstrapVersion']);
    expect(prepared.parameters.values.has('BootstrapVersion')).toBe(false);
  });

  it('is evaluated when ignoreCdkBootstrapRule is false', async () => {
    await expectTemplateRejection(
      prepareTemplate(cdkTemplate(), {
        pseudo,
        ignoreCdkBootstrapRule: false,
        ssmParameter: async () => '4',
      }),
      'RULE_ASSERTION_FAILED',
      'Rules.CheckBootstrapVersion.Assertions[0]: CDK bootstrap stack version 6 required',
    );
    const ok = await prepareTemplate(cdkTemplate(), {
      pseudo,
      ignoreCdkBootstrapRule: false,
      ssmParameter: async () => '21',
    });
    expect(ok.parameters.values.get('BootstrapVersion')).toBe('21');
  });

  it('still resolves BootstrapVersion when something else references it', async () => {
    const template = cdkTemplate({ Outputs: { V: { Value: { Ref: 'BootstrapVersion' } } } });
    const prepared = await prepareTemplate(template, { pseudo, ssmParameter: async () => '21' });
    expect(prepared.parameters.values.get('BootstrapVersion')).toBe('21');
    expect([...prepared.skippedRules]).toEqual(['CheckBootstrapVersion']);
  });
});

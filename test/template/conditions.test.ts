import { describe, expect, it } from 'vitest';
import {
  buildPseudoParameters,
  evaluateConditions,
  parseTemplate,
  type ParameterValue,
} from '../../src/template/index.js';
import { expectTemplateError } from './helpers.js';

function conditions(defs: Record<string, unknown>, params: Record<string, ParameterValue> = { Env: 'prod' }) {
  const template = parseTemplate(JSON.stringify({ Conditions: defs }));
  return evaluateConditions(template, {
    parameters: new Map(Object.entries(params)),
    pseudo: buildPseudoParameters({ accountId: '1', region: 'us-east-1', stackName: 's' }),
    mappings: new Map([['M', { k: { v: 'prod' } }]]),
  });
}

describe('Conditions section', () => {
  it.each<[string, unknown, boolean]>([
    ['Equals parameter', { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] }, true],
    ['Equals pseudo parameter', { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'eu-west-1'] }, false],
    ['Equals FindInMap', { 'Fn::Equals': [{ 'Fn::FindInMap': ['M', 'k', 'v'] }, { Ref: 'Env' }] }, true],
    ['Not', { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] }] }, false],
    ['And of two', { 'Fn::And': [{ 'Fn::Equals': [1, 1] }, { 'Fn::Equals': ['a', 'a'] }] }, true],
    [
      'And with a false member',
      { 'Fn::And': [{ 'Fn::Equals': [1, 1] }, { 'Fn::Equals': ['a', 'b'] }] },
      false,
    ],
    ['Or of ten', { 'Fn::Or': [...Array(9).fill({ 'Fn::Equals': [1, 2] }), { 'Fn::Equals': [1, 1] }] }, true],
    ['Or all false', { 'Fn::Or': [{ 'Fn::Equals': [1, 2] }, { 'Fn::Equals': [3, 4] }] }, false],
    ['Condition reference', { 'Fn::Not': [{ Condition: 'Base' }] }, false],
  ])('%s', (_name, definition, expected) => {
    const result = conditions({ Base: { 'Fn::Equals': ['x', 'x'] }, Tested: definition });
    expect(result.get('Tested')).toBe(expected);
  });

  it('evaluates conditions referenced before they are declared', () => {
    const result = conditions({
      Later: { 'Fn::And': [{ Condition: 'A' }, { Condition: 'B' }] },
      A: { 'Fn::Equals': [1, 1] },
      B: { 'Fn::Equals': [2, 2] },
    });
    expect(Object.fromEntries(result)).toEqual({ Later: true, A: true, B: true });
  });

  it('detects a cycle and names it in order', () => {
    expectTemplateError(
      () =>
        conditions({
          A: { 'Fn::Not': [{ Condition: 'B' }] },
          B: { 'Fn::And': [{ Condition: 'C' }, { 'Fn::Equals': [1, 1] }] },
          C: { 'Fn::Not': [{ Condition: 'A' }] },
        }),
      'CONDITION_CYCLE',
      'condition cycle: A → B → C → A',
    );
  });

  it('detects a condition that references itself', () => {
    expectTemplateError(
      () => conditions({ A: { 'Fn::Not': [{ Condition: 'A' }] } }),
      'CONDITION_CYCLE',
      'A → A',
    );
  });

  it('names an undefined condition', () => {
    expectTemplateError(
      () => conditions({ A: { 'Fn::Not': [{ Condition: 'Nope' }] } }),
      'TEMPLATE_INVALID',
      'Conditions.A.Fn::Not[0]',
      '"Nope" is not defined',
    );
  });

  it('refuses resource references', () => {
    expectTemplateError(
      () => conditions({ A: { 'Fn::Equals': [{ Ref: 'Bucket' }, 'x'] } }),
      'TEMPLATE_EVALUATION_ERROR',
      'Conditions.A.Fn::Equals[0]',
      'Conditions can only reference parameters',
    );
  });

  it('requires a boolean result', () => {
    expectTemplateError(
      () => conditions({ A: { 'Fn::Join': ['', ['a']] } }),
      'TEMPLATE_EVALUATION_ERROR',
      'Conditions.A',
      'expected a condition',
    );
  });
});

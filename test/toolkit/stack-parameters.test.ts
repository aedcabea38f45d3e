import { describe, expect, it } from 'vitest';
import {
  entryEffect,
  stackParameters,
  type EntryEffect,
  type ParameterizedStack,
} from '../../src/toolkit/stacks/stack-parameters.js';

const declaring = (stackName: string, ...names: string[]) => ({
  stackName,
  declares: (name: string) => names.includes(name),
});

describe('what a --parameters entry does for one selected stack (the CDK CLI reading)', () => {
  it.each<[string, { stack?: string; name: string }, EntryEffect]>([
    ['NAME=v, the stack declares NAME: applied', { name: 'Env' }, 'apply'],
    ['NAME=v, the stack does not declare NAME: ignored for it', { name: 'Port' }, 'ignore'],
    ['STACK:NAME=v for this stack, declared: applied', { stack: 'A', name: 'Env' }, 'apply'],
    ['STACK:NAME=v for this stack, not declared: refused', { stack: 'A', name: 'Port' }, 'unknown'],
    ['STACK:NAME=v for another stack: not this one', { stack: 'B', name: 'Env' }, 'other-stack'],
  ])('%s', (_row, entry, effect) => {
    expect(entryEffect(entry, declaring('A', 'Env'))).toBe(effect);
  });
});

function stack(stackName: string, parameters: Record<string, { Default?: string }>): ParameterizedStack {
  const Parameters = Object.fromEntries(
    Object.entries(parameters).map(([name, extra]) => [name, { Type: 'String', ...extra }]),
  );
  return { stackName, displayName: stackName, template: { Parameters }, parameters: {} };
}

describe("every selected stack's parameter values", () => {
  const web = stack('Web', { Env: {}, Port: { Default: '80' } });
  const db = stack('Db', { Env: {}, Size: {} });
  const cdn = stack('Cdn', {});

  it('a plain entry goes to every stack declaring it, a STACK: entry to that stack and over the plain one', () => {
    const result = stackParameters([web, db], ['Env=prod', 'Db:Env=db-prod', 'Size=10']);
    expect(result.values.get('Web')).toEqual({ Env: 'prod' });
    expect(result.values.get('Db')).toEqual({ Env: 'db-prod', Size: '10' });
  });

  it('a plain entry a stack does not declare is ignored for it, with one note naming those stacks', () => {
    const result = stackParameters([web, db, cdn], ['Env=prod', 'Size=10']);
    expect(result.values.get('Cdn')).toEqual({});
    expect(result.values.get('Web')).toEqual({ Env: 'prod' });
    expect(result.notes).toEqual([
      '--parameters Env: ignored for Cdn, which declares no parameter Env.',
      '--parameters Size: ignored for Web, Cdn, which declare no parameter Size.',
    ]);
  });

  it('every missing parameter of every selected stack is named in one refusal', () => {
    expect(() => stackParameters([web, db, cdn], [])).toThrow(
      expect.objectContaining({
        code: 'PARAMETER_MISSING',
        message: 'Parameters with no value and no Default: Web: Env; Db: Env, Size.',
      }),
    );
  });

  it("the assembly's own values count as given", () => {
    const result = stackParameters([{ ...web, parameters: { Env: 'from-assembly' } }], []);
    expect(result.values.get('Web')).toEqual({ Env: 'from-assembly' });
  });

  it('entries no selected stack can take are refused together, values never shown', () => {
    const run = () => stackParameters([web, cdn], ['Typo=secret', 'Web:Size=1', 'Env=x']);
    expect(run).toThrow(
      expect.objectContaining({
        code: 'PARAMETER_UNKNOWN',
        message: '--parameters names parameters no selected stack declares: Typo, Web:Size.',
      }),
    );
    expect(run).not.toThrow(/secret/);
  });

  it('a STACK: entry for a stack not selected is left alone', () => {
    expect(stackParameters([web], ['Env=a', 'Other:Env=b']).values.get('Web')).toEqual({ Env: 'a' });
  });

  it('an entry without = is a syntax error', () => {
    expect(() => stackParameters([web], ['Env'])).toThrow(
      expect.objectContaining({ code: 'PARAMETER_SYNTAX' }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { DescribeTypeAnswer } from '../../src/aws/describe-type.js';
import { RegistrySchemas } from '../../src/engine/registry-schemas.js';

const SCHEMA = JSON.stringify({ properties: { Name: {} }, createOnlyProperties: ['/properties/Name'] });
const STACK = { stackName: 'S', region: 'us-east-1' };

/** A registry that answers `answer(type)` and records every call. */
function registry(answer: (type: string) => DescribeTypeAnswer) {
  const calls: string[] = [];
  const warnings: string[] = [];
  const schemas = new RegistrySchemas(
    async (region, type) => {
      calls.push(`${region} ${type}`);
      return answer(type);
    },
    (stack, message) => warnings.push(`${stack}: ${message}`),
  );
  return { schemas, calls, warnings };
}

describe('the run-wide cache of registry answers', () => {
  it('asks once per type and region, however many stacks ask', async () => {
    const { schemas, calls } = registry(() => ({ kind: 'schema', schema: SCHEMA }));
    const [first, second] = await Promise.all([
      schemas.forTypes(STACK, ['AWS::A::One', 'AWS::A::Two']),
      schemas.forTypes({ stackName: 'T', region: 'us-east-1' }, ['AWS::A::One']),
    ]);
    await schemas.forTypes({ stackName: 'U', region: 'eu-west-1' }, ['AWS::A::One']);
    expect(calls.sort()).toEqual(['eu-west-1 AWS::A::One', 'us-east-1 AWS::A::One', 'us-east-1 AWS::A::Two']);
    expect(first.get('AWS::A::One')).toEqual({
      kind: 'schema',
      schema: { createOnly: ['Name'], nested: [], conditional: [], writeOnly: [] },
    });
    expect(second.get('AWS::A::One')).toEqual(first.get('AWS::A::One'));
  });

  it('an empty list asks nothing', async () => {
    const { schemas, calls } = registry(() => ({ kind: 'schema', schema: SCHEMA }));
    expect((await schemas.forTypes(STACK, [])).size).toBe(0);
    expect(calls).toEqual([]);
  });

  it('denied calls in flight together warn once, and nothing is asked after', async () => {
    const { schemas, calls, warnings } = registry(() => ({ kind: 'denied', code: 'AccessDenied' }));
    const answers = await schemas.forTypes(STACK, ['AWS::A::One', 'AWS::A::Two', 'AWS::A::Three']);
    await schemas.forTypes({ stackName: 'T', region: 'us-east-1' }, ['AWS::A::Four']);
    expect(calls).toHaveLength(3);
    expect([...answers.values()]).toEqual([
      { kind: 'unavailable' },
      { kind: 'unavailable' },
      { kind: 'unavailable' },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^S: cloudformation:DescribeType is not allowed \(AccessDenied\)/);
  });

  it.each([
    ['plan', /replacement verdicts come from cdkd's bundled schema index/],
    ['drift', /drift passes over only the write-only properties an SDK provider names/],
  ] as const)(
    'a denied call during a %s says what that command does without the schema',
    async (use, said) => {
      const { schemas, warnings } = registry(() => ({ kind: 'denied', code: 'AccessDenied' }));
      await schemas.forTypes(STACK, ['AWS::A::One'], use);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(said);
    },
  );

  it('a type the registry does not know is an answer, with no warning', async () => {
    const { schemas, warnings } = registry(() => ({ kind: 'type-not-found' }));
    expect((await schemas.forTypes(STACK, ['Acme::Private::Widget'])).get('Acme::Private::Widget')).toEqual({
      kind: 'type-not-found',
    });
    expect(warnings).toEqual([]);
  });

  it('a failed call or an unreadable schema warns for its type once and is unavailable', async () => {
    const { schemas, warnings } = registry((type) =>
      type === 'AWS::A::Broken'
        ? { kind: 'schema', schema: 'not json' }
        : { kind: 'failed', message: 'Boom: no' },
    );
    const answers = await schemas.forTypes(STACK, ['AWS::A::Broken', 'AWS::A::Failing']);
    await schemas.forTypes(STACK, ['AWS::A::Broken', 'AWS::A::Failing']);
    expect([...answers.values()]).toEqual([{ kind: 'unavailable' }, { kind: 'unavailable' }]);
    expect(warnings).toEqual([
      'S: cloudformation:DescribeType returned a schema for AWS::A::Broken that cdkd cannot read: its replacement verdicts come from the bundled schema index.',
      'S: cloudformation:DescribeType for AWS::A::Failing failed (Boom: no): its replacement verdicts come from the bundled schema index.',
    ]);
  });
});

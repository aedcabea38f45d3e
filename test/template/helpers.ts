import type { EvaluationContext, ParameterValue } from '../../src/template/index.js';
import { buildPseudoParameters, TemplateEvaluationError } from '../../src/template/index.js';
import { conditionLookup } from '../../src/template/conditions.js';
import { expect } from 'vitest';

/** A resource resolver whose answers are visible in the result: `ref:X`, `att:X.Attr`. */
export const echoResolver = {
  ref: (id: string) => `ref:${id}`,
  getAtt: (id: string, attribute: string) =>
    attribute === 'Ipv6CidrBlocks' ? ['2001:db8:1234:1a00::/56'] : `att:${id}.${attribute}`,
};

export function makeContext(overrides: Partial<EvaluationContext> = {}): EvaluationContext {
  return {
    parameters: new Map<string, ParameterValue>([
      ['Env', 'prod'],
      ['Count', '2'],
      ['Subnets', ['subnet-1', 'subnet-2']],
    ]),
    pseudo: buildPseudoParameters({ accountId: '123456789012', region: 'eu-west-1', stackName: 'Demo' }),
    mappings: new Map([['Regions', { 'eu-west-1': { Ami: 'ami-eu', Zones: ['a', 'b'] } }]]),
    condition: conditionLookup(
      new Map([
        ['IsProd', true],
        ['IsDev', false],
      ]),
    ),
    resources: echoResolver,
    resourceIds: new Set(['Bucket', 'Vpc', 'Queue']),
    removedResources: new Map([['DevOnly', 'IsDev']]),
    importValue: (name) => (name === 'Shared-VpcId' ? 'vpc-123' : undefined),
    ...overrides,
  };
}

/** Runs `fn`, asserting it throws a TemplateEvaluationError with `code` whose message holds `parts`. */
export function expectTemplateError(
  fn: () => unknown,
  code: string,
  ...parts: string[]
): TemplateEvaluationError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(TemplateEvaluationError);
  const error = caught as TemplateEvaluationError;
  expect(error.code).toBe(code);
  for (const part of parts) expect(error.message).toContain(part);
  return error;
}

export async function expectTemplateRejection(
  promise: Promise<unknown>,
  code: string,
  ...parts: string[]
): Promise<TemplateEvaluationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return expectTemplateError(
    () => {
      if (error) throw error;
    },
    code,
    ...parts,
  );
}

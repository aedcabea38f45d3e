import { describe, expect, it } from 'vitest';
import type { CheckedStack, StackArtifact } from '../../src/assembly/index.js';
import { CdkdError } from '../../src/errors.js';
import {
  referenceDecision,
  refuseCrossEnvironmentReferences,
  type Environment,
} from '../../src/toolkit/stacks/cross-environment-references.js';

const A_EAST = { accountId: '111111111111', region: 'us-east-1' };
const A_WEST = { accountId: '111111111111', region: 'eu-west-1' };
const B_EAST = { accountId: '222222222222', region: 'us-east-1' };
const B_WEST = { accountId: '222222222222', region: 'eu-west-1' };

describe('referenceDecision: an export is read in its own account and region only', () => {
  it.each([
    ['same account and region', A_EAST, A_EAST, 'allowed'],
    ['same account, another region', A_EAST, A_WEST, 'cross-region'],
    ['another account, same region', B_EAST, A_EAST, 'cross-account'],
    ['another account and region', B_WEST, A_EAST, 'cross-account'],
  ] as const)('%s', (_row, importer, exporter, decision) => {
    expect(referenceDecision(importer, exporter)).toBe(decision);
  });
});

function stack(stackName: string, template: Record<string, unknown>): StackArtifact {
  return { stackName, template } as unknown as StackArtifact;
}
const exporter = (name: string, exportName: string) =>
  stack(name, {
    Resources: { Q: { Type: 'AWS::SQS::Queue' } },
    Outputs: { Arn: { Value: { 'Fn::GetAtt': ['Q', 'Arn'] }, Export: { Name: exportName } } },
  });
const importer = (name: string, exportName: string) =>
  stack(name, {
    Resources: {
      T: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::ImportValue': exportName } } },
    },
  });

function check(
  stacks: Array<[StackArtifact, Environment]>,
  deploying: StackArtifact[],
): CdkdError | undefined {
  const environments = new Map(stacks);
  try {
    refuseCrossEnvironmentReferences(
      deploying.map((s) => ({ stack: s, nested: [] }) as CheckedStack),
      stacks.map(([s]) => s),
      (s) => environments.get(s)!,
    );
    return undefined;
  } catch (error) {
    return error as CdkdError;
  }
}

describe('refuseCrossEnvironmentReferences', () => {
  it('allows an import of an export declared in its own environment', () => {
    const [e, i] = [exporter('Exporter', 'QueueArn'), importer('Importer', 'QueueArn')];
    expect(
      check(
        [
          [e, A_EAST],
          [i, A_EAST],
        ],
        [e, i],
      ),
    ).toBeUndefined();
  });

  it('refuses an import across accounts, naming both stacks and environments, with what to do', () => {
    const [e, i] = [exporter('Exporter', 'QueueArn'), importer('Importer', 'QueueArn')];
    const error = check(
      [
        [e, A_EAST],
        [i, B_EAST],
      ],
      [i],
    );
    expect(error?.code).toBe('CROSS_ENVIRONMENT_REFERENCE');
    expect(error?.message).toContain(
      'Stack Importer (aws://222222222222/us-east-1) imports the export QueueArn of stack Exporter (aws://111111111111/us-east-1)',
    );
    expect(error?.hint).toContain('SSM parameter in account 222222222222');
  });

  it('refuses an import across regions of one account, pointing at crossRegionReferences', () => {
    const [e, i] = [exporter('Exporter', 'QueueArn'), importer('Importer', 'QueueArn')];
    const error = check(
      [
        [e, A_WEST],
        [i, A_EAST],
      ],
      [e, i],
    );
    expect(error?.code).toBe('CROSS_ENVIRONMENT_REFERENCE');
    expect(error?.hint).toContain('crossRegionReferences: true on Importer');
  });

  it('allows the import when the same export name is also declared in the importer environment (one app, several environments)', () => {
    const [dev, prod, i] = [
      exporter('Dev', 'QueueArn'),
      exporter('Prod', 'QueueArn'),
      importer('Importer', 'QueueArn'),
    ];
    expect(
      check(
        [
          [dev, A_EAST],
          [prod, B_EAST],
          [i, B_EAST],
        ],
        [i],
      ),
    ).toBeUndefined();
  });

  it('leaves an export the app does not declare to the deploy (it may already exist there)', () => {
    const i = importer('Importer', 'MadeElsewhere');
    expect(check([[i, B_EAST]], [i])).toBeUndefined();
  });

  it("reads export names built from pseudo parameters in the exporter's own environment", () => {
    const e = exporter('Exporter', { 'Fn::Sub': '${AWS::Region}-QueueArn' } as unknown as string);
    const i = importer('Importer', 'us-east-1-QueueArn');
    expect(
      check(
        [
          [e, A_EAST],
          [i, A_EAST],
        ],
        [i],
      ),
    ).toBeUndefined();
    expect(
      check(
        [
          [e, A_WEST],
          [i, A_EAST],
        ],
        [i],
      ),
    ).toBeUndefined();
    expect(
      check(
        [
          [e, B_EAST],
          [i, A_EAST],
        ],
        [i],
      )?.code,
    ).toBe('CROSS_ENVIRONMENT_REFERENCE');
  });
});

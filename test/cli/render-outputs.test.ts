import { describe, expect, it } from 'vitest';
import {
  outputFailureWarnings,
  renderOutputChanges,
  renderOutputs,
} from '../../src/cli/render/render-outputs.js';
import type { StackDeployResult } from '../../src/engine/deploy/deploy-result.js';
import type { Plan } from '../../src/plan/index.js';

const result = (extra: Partial<StackDeployResult>): StackDeployResult => ({
  stackName: 'Web',
  plan: { operations: [] } as unknown as Plan,
  outputs: { Ip: { value: '10.0.0.5' } },
  changed: true,
  unaddressed: [],
  ...extra,
});

const refused = {
  name: 'PublicIp',
  message: 'Fn::GetAtt Host.PublicIp: AWS::EC2::Instance i-1 is pending, so it has no PublicIp yet.',
  hint: 'Deploy again without --no-wait.',
};

describe('outputs with a live attribute refused', () => {
  it('prints the Outputs section when every output resolved', () => {
    expect(renderOutputs([result({})])).toBe('Web\nOutputs:\nWeb.Ip = 10.0.0.5\n');
    expect(outputFailureWarnings([result({})])).toEqual([]);
  });

  it('suppresses the Outputs section and warns, naming the output, why and the remedy', () => {
    const failed = result({ failedOutputs: [refused] });
    expect(renderOutputs([failed])).toBe('Web\n');
    expect(outputFailureWarnings([failed])).toEqual([
      `Outputs of Web not shown: an output could not be resolved (PublicIp: ${refused.message} ${refused.hint})`,
    ]);
  });
});

describe("cdkd diff's Outputs section", () => {
  it('lists added, changed and removed outputs', () => {
    const text = renderOutputChanges(
      result({
        outputChanges: [
          { name: 'GroupVpc', before: '', after: 'vpc-1' },
          { name: 'New', after: 'x' },
          { name: 'Gone', before: 'y' },
        ],
      }),
    );
    expect(text).toBe('Outputs:\n  ~ GroupVpc: "" → "vpc-1"\n  + New: "x"\n  - Gone: "y"\n');
  });

  it('shows a value the deploy has yet to make as (known after deploy)', () => {
    const text = renderOutputChanges(
      result({
        outputChanges: [
          { name: 'Fresh', knownAfterDeploy: true },
          { name: 'Moved', before: 'old', knownAfterDeploy: true },
        ],
      }),
    );
    expect(text).toBe('Outputs:\n  + Fresh: (known after deploy)\n  ~ Moved: "old" → (known after deploy)\n');
  });

  it('is empty without changes, and when an output could not be resolved', () => {
    expect(renderOutputChanges(result({}))).toBe('');
    expect(
      renderOutputChanges(result({ outputChanges: [{ name: 'A', after: 'x' }], failedOutputs: [refused] })),
    ).toBe('');
  });
});

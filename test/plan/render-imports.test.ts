import { describe, expect, it } from 'vitest';
import { renderPlanJson, renderPlanText } from '../../src/plan/index.js';
import type { Plan } from '../../src/plan/index.js';

const plan: Plan = {
  operations: [],
  imports: [
    { exportName: 'from-cdkd', side: 'cdkd', stackName: 'Producer' },
    { exportName: 'from-cfn', side: 'cloudformation', stackName: 'Legacy' },
  ],
};

describe('where each import of a stack comes from, in cdkd diff', () => {
  it('text names the side and stack of each export', () => {
    expect(renderPlanText(plan)).toBe(
      [
        '0 to create, 0 to update, 0 to replace, 0 to delete, 0 unchanged',
        'Imports:',
        '    from-cdkd ← cdkd stack Producer',
        '    from-cfn ← CloudFormation stack Legacy',
        '',
      ].join('\n'),
    );
  });

  it('--json carries them as `imports`', () => {
    expect(JSON.parse(renderPlanJson(plan)).imports).toEqual(plan.imports);
  });

  it('a stack that imports nothing shows no block', () => {
    expect(renderPlanText({ operations: [] })).not.toContain('Imports');
    expect(JSON.parse(renderPlanJson({ operations: [] }))).not.toHaveProperty('imports');
  });
});

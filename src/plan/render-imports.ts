import type { Plan } from './types.js';

const SIDE = { cdkd: 'cdkd stack', cloudformation: 'CloudFormation stack' } as const;

/** `cdkd diff`'s lines naming where each Fn::ImportValue of the stack comes from; none when it imports nothing. */
export function renderImports(plan: Plan): string[] {
  const imports = plan.imports ?? [];
  if (imports.length === 0) return [];
  return [
    'Imports:',
    ...imports.map((entry) => `    ${entry.exportName} ← ${SIDE[entry.side]} ${entry.stackName}`),
  ];
}

import {
  flattenNestedStacks,
  UNKNOWN_REGION,
  type CheckedStack,
  type StackArtifact,
} from '../../assembly/index.js';
import { stackNameProblem } from '../../cloudformation-names.js';
import { CdkdError } from '../../errors.js';
import { propertyProblems } from '../../plan/validate-properties.js';
import { staticExportNames } from '../../template/export-names.js';
import { isPlainObject } from '../../template/model.js';
import { limitsExceeded } from '../../template/template-limits.js';
import type { TemplateProblem } from '../../template/index.js';
import { templateProblems } from '../../template/validate-template.js';

/** Problems listed in one error before the rest are only counted. */
const LISTED_PROBLEMS = 12;

/**
 * Stack names CloudFormation refuses (`S/Q` would address S's nested stack Q in the state
 * bucket, `..` would leave the prefix). Checked before anything touches a stack.
 */
export function refuseInvalidStackNames(stacks: readonly StackArtifact[]): void {
  const invalid = stacks.flatMap((stack) => {
    const problem = stackNameProblem(stack.stackName);
    return problem === undefined
      ? []
      : [`${JSON.stringify(stack.stackName)} (${stack.displayName}): ${problem}`];
  });
  if (invalid.length === 0) return;
  throw new CdkdError('STACK_NAME_INVALID', `CloudFormation refuses the stack name ${invalid.join('; ')}.`, {
    hint: 'Give the stack a name of letters, digits and hyphens starting with a letter (the stackName prop in the app).',
  });
}

/**
 * The template checks of a deploy set, every template of every stack's nested tree
 * included, before any asset, lock or state is touched: what CloudFormation refuses (one
 * error listing every problem), export names declared twice in a region, and a warning
 * line per stack above CloudFormation's limits. `callerRegion` places environment-agnostic stacks.
 */
export function validateDeploySet(stacks: readonly CheckedStack[], callerRegion: string): string[] {
  refuseInvalidStackNames(stacks.map(({ stack }) => stack));
  const problems: string[] = [];
  const warnings: string[] = [];
  const exports = new Map<string, string[]>();
  for (const checked of stacks) {
    const region =
      checked.stack.environment.region === UNKNOWN_REGION ? callerRegion : checked.stack.environment.region;
    for (const { name, stackName, template } of templatesOf(checked)) {
      problems.push(
        ...problemsOf(template).map(
          (problem) => `Stack ${name}, ${problem.path || '(template)'}: ${problem.message}`,
        ),
      );
      const exceeded = limitsExceeded(template);
      if (exceeded.length > 0) {
        warnings.push(
          `Stack ${name} is above CloudFormation's limits (${exceeded.join(', ')}): cdkd deploys it, but the CDK CLI could not.`,
        );
      }
      if (!isPlainObject(template)) continue;
      for (const declared of staticExportNames(template, { accountId: 'unknown', region, stackName })) {
        const key = `${region}\u0000${declared.name}`;
        exports.set(key, [...(exports.get(key) ?? []), `${name} (Outputs.${declared.output})`]);
      }
    }
  }
  for (const [key, declarers] of exports) {
    if (declarers.length < 2) continue;
    const [region, name] = key.split('\u0000');
    problems.push(
      `Export with name ${name} is declared ${declarers.length} times in ${region}: by ${declarers.join(', ')}`,
    );
  }
  if (problems.length > 0) throw invalidTemplates(problems);
  return warnings;
}

/** A stack's template and every template of its nested tree, each with the name it is shown by. */
function templatesOf({
  stack,
  nested,
}: CheckedStack): Array<{ name: string; stackName: string; template: unknown }> {
  return [
    { name: stack.stackName, stackName: stack.stackName, template: stack.template },
    ...flattenNestedStacks(nested).map((child) => ({
      name: child.qualifiedName,
      stackName: child.qualifiedName.replaceAll('~', '-'),
      template: child.template,
    })),
  ];
}

function problemsOf(template: unknown): TemplateProblem[] {
  const resources = isPlainObject(template) && isPlainObject(template.Resources) ? template.Resources : {};
  return [...templateProblems(template), ...propertyProblems(resources)];
}

function invalidTemplates(problems: string[]): CdkdError {
  const listed = problems.slice(0, LISTED_PROBLEMS).join('; ');
  const more = problems.length > LISTED_PROBLEMS ? `; and ${problems.length - LISTED_PROBLEMS} more` : '';
  const emptied = problems.some((problem) => problem.includes('At least one Resources member'));
  return new CdkdError(
    'TEMPLATE_INVALID',
    `Template format error (${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing was deployed): ${listed}${more}.`,
    {
      hint: emptied
        ? 'Fix the template and re-synthesize; to remove every resource of a deployed stack, run cdkd destroy <stack>.'
        : 'Fix the template and re-synthesize (cdk synth); cdkd refuses what CloudFormation would.',
    },
  );
}

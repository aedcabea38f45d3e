import type { NestedStack, StackArtifact } from '../../assembly/index.js';
import { flattenNestedStacks } from '../../assembly/index.js';

/** `Stage/Stack`, followed by the CloudFormation name when it differs. */
export function stackLabel(stack: StackArtifact): string {
  return stack.stackName === stack.displayName
    ? stack.displayName
    : `${stack.displayName} (${stack.stackName})`;
}

/** One summary line: label, environment, resource count, nested stacks. */
export function stackSummary(stack: StackArtifact, nested: NestedStack[]): string {
  const resources = Object.keys(stack.template.Resources ?? {}).length;
  const all = flattenNestedStacks(nested);
  const nestedText =
    all.length === 0
      ? ''
      : `, ${all.length} nested stack${all.length === 1 ? '' : 's'} (${all.reduce(
          (sum, n) => sum + Object.keys(n.template.Resources ?? {}).length,
          0,
        )} resources)`;
  return `${stackLabel(stack)}  ${stack.environment.name}  ${resources} resource${resources === 1 ? '' : 's'}${nestedText}`;
}

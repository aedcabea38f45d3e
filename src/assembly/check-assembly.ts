import { checkAssetPaths } from './asset-paths.js';
import { walkNestedStacks, type NestedStack } from './nested-stacks.js';
import type { CloudAssembly, StackArtifact } from './types.js';

export interface CheckedStack {
  stack: StackArtifact;
  /** The stack's nested-stack tree, every template loaded. */
  nested: NestedStack[];
}

export interface AssemblyCheckResult {
  stacks: CheckedStack[];
  /** Asset-path warnings to print before going on. */
  warnings: string[];
}

/**
 * The cloud assembly checks for a deploy set (the selected stacks and the ones
 * pulled in as dependencies), run before anything happens to any of them: every
 * nested-stack tree is walked in full, then every asset path is measured against
 * the output directory. One malformed stack refuses the whole set.
 */
export function checkAssembly(assembly: CloudAssembly, deploySet: StackArtifact[]): AssemblyCheckResult {
  const stacks = deploySet.map((stack) => ({
    stack,
    nested: walkNestedStacks(
      { name: stack.stackName, templateFile: stack.templateFile, template: stack.template },
      { outputDir: assembly.directory },
    ),
  }));
  const warnings = checkAssetPaths(
    deploySet.flatMap((stack) => stack.assetManifests),
    assembly.directory,
  );
  return { stacks, warnings: [...new Set(warnings)] };
}

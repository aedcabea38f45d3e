import type { Template } from './model.js';
import { rootPath } from './path.js';
import { collectReferences } from './references.js';
import { CDK_BOOTSTRAP_RULE } from './rules.js';

/** The SSM-typed parameter CDK's default synthesizer adds for CheckBootstrapVersion. */
export const CDK_BOOTSTRAP_PARAMETER = 'BootstrapVersion';

/**
 * What to skip when the caller ignores CDK's bootstrap check. cdkd deploys without CDK's
 * bootstrap stack (CDKToolkit), so the rule's question, "is /cdk-bootstrap/hnb659fds/version
 * at least 6?", does not apply, and reading that SSM parameter would fail in an account that
 * was never `cdk bootstrap`ped. The rule is skipped, and its BootstrapVersion parameter is left
 * unresolved unless something other than the rule references it.
 */
export function cdkBootstrapSkips(template: Template): { rules: Set<string>; parameters: Set<string> } {
  if (!template.rules.has(CDK_BOOTSTRAP_RULE)) return { rules: new Set(), parameters: new Set() };
  const rules = new Set([CDK_BOOTSTRAP_RULE]);
  const used = template.parameters.has(CDK_BOOTSTRAP_PARAMETER) && isReferencedOutside(template);
  return { rules, parameters: used ? new Set() : new Set([CDK_BOOTSTRAP_PARAMETER]) };
}

function isReferencedOutside(template: Template): boolean {
  const fragments: unknown[] = [...template.conditions.values()];
  for (const resource of template.resources.values()) fragments.push(resource);
  for (const output of template.outputs.values()) fragments.push(output);
  for (const [name, rule] of template.rules) if (name !== CDK_BOOTSTRAP_RULE) fragments.push(rule);
  const root = rootPath('template');
  return fragments.some((f) => collectReferences(f, root).some((r) => r.target === CDK_BOOTSTRAP_PARAMETER));
}

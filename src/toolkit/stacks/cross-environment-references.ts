import { flattenNestedStacks, type CheckedStack, type StackArtifact } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import { staticExportNames } from '../../template/export-names.js';
import { collectImports } from '../../template/index.js';
import { isPlainObject } from '../../template/model.js';
import { rootPath } from '../../template/path.js';
import type { StackTarget } from './stack-requests.js';

export type Environment = Pick<StackTarget, 'accountId' | 'region'>;

/**
 * Whether a stack may read an export of a stack in `exporter`'s environment, as the CDK decides
 * at synth: an export is read only in its own account and region. Across regions of one account
 * the CDK offers `crossRegionReferences` (SSM parameters, no export); across accounts nothing.
 */
export function referenceDecision(
  importer: Environment,
  exporter: Environment,
): 'allowed' | 'cross-region' | 'cross-account' {
  if (importer.accountId !== exporter.accountId) return 'cross-account';
  return importer.region === exporter.region ? 'allowed' : 'cross-region';
}

interface Declared {
  stack: string;
  environment: Environment;
}

/**
 * Refuses, before anything is published, locked or changed, a stack of the deploy set whose
 * template (or nested template) reads with `Fn::ImportValue` an export that the app declares
 * only in stacks of other environments: that export cannot be found where the importer is
 * deployed. An export the app does not declare is left to the deploy (it may already exist).
 */
export function refuseCrossEnvironmentReferences(
  deploying: readonly CheckedStack[],
  others: readonly StackArtifact[],
  targetOf: (stack: StackArtifact) => Environment,
): void {
  const declared = new Map<string, Declared[]>();
  const declare = (stack: StackArtifact, name: string, stackName: string, template: unknown) => {
    if (!isPlainObject(template)) return;
    const environment = targetOf(stack);
    for (const { name: exportName } of staticExportNames(template, { ...environment, stackName })) {
      declared.set(exportName, [...(declared.get(exportName) ?? []), { stack: name, environment }]);
    }
  };
  const inDeploySet = new Set(deploying.map(({ stack }) => stack));
  for (const checked of deploying) {
    for (const entry of templatesOf(checked))
      declare(checked.stack, entry.name, entry.stackName, entry.template);
  }
  for (const stack of others) {
    if (!inDeploySet.has(stack)) declare(stack, stack.stackName, stack.stackName, stack.template);
  }
  for (const checked of deploying) {
    const importer = targetOf(checked.stack);
    for (const entry of templatesOf(checked)) {
      for (const name of importedNames(entry.template)) {
        const exporters = declared.get(name) ?? [];
        if (exporters.length === 0) continue;
        if (exporters.some((exporter) => referenceDecision(importer, exporter.environment) === 'allowed'))
          continue;
        throw crossEnvironmentReference(entry.name, importer, name, exporters[0]!);
      }
    }
  }
}

function importedNames(template: unknown): string[] {
  if (!isPlainObject(template)) return [];
  return ['Resources', 'Outputs'].flatMap((section) =>
    collectImports(template[section], rootPath(section)).map((read) => read.name),
  );
}

function templatesOf({ stack, nested }: CheckedStack) {
  return [
    { name: stack.stackName, stackName: stack.stackName, template: stack.template as unknown },
    ...flattenNestedStacks(nested).map((child) => ({
      name: child.qualifiedName,
      stackName: child.qualifiedName.replaceAll('~', '-'),
      template: child.template as unknown,
    })),
  ];
}

const where = (environment: Environment) => `aws://${environment.accountId}/${environment.region}`;

function crossEnvironmentReference(
  importer: string,
  importerEnvironment: Environment,
  exportName: string,
  exporter: Declared,
): CdkdError {
  const decision = referenceDecision(importerEnvironment, exporter.environment);
  return new CdkdError(
    'CROSS_ENVIRONMENT_REFERENCE',
    `Stack ${importer} (${where(importerEnvironment)}) imports the export ${exportName} of stack ${exporter.stack} (${where(exporter.environment)}), but an export is read only in its own account and region; nothing was deployed.`,
    {
      hint:
        decision === 'cross-region'
          ? `Set crossRegionReferences: true on ${importer} (the CDK then passes the value through SSM parameters), or deploy both stacks to one region.`
          : `The CDK does not reference across accounts: pass the value to ${importer} another way (a stack parameter, or an SSM parameter in account ${importerEnvironment.accountId}), or deploy both stacks to one account.`,
    },
  );
}

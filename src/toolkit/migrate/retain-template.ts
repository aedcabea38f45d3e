import { CDK_METADATA_TYPE } from '../../resource-types/index.js';

/** The logical id of the one resource a stack holding only exports keeps (CloudFormation wants one). */
export const EXPORT_HOLDER_ID = 'CdkdMigratedExports';

/** The template with DeletionPolicy Retain on every resource: deleting the stack then keeps them all. */
export function retainedTemplate(template: Record<string, unknown>): Record<string, unknown> {
  const resources = (template.Resources ?? {}) as Record<string, Record<string, unknown>>;
  return {
    ...template,
    Resources: Object.fromEntries(
      Object.entries(resources).map(([id, resource]) => [id, { ...resource, DeletionPolicy: 'Retain' }]),
    ),
  };
}

/** True when deleting the stack with this template deletes none of its resources. */
export function retainsEverything(template: Record<string, unknown>): boolean {
  const resources = (template.Resources ?? {}) as Record<string, Record<string, unknown>>;
  return Object.values(resources).every(
    (resource) => resource.DeletionPolicy === 'Retain' || resource.Type === CDK_METADATA_TYPE,
  );
}

/**
 * Under --force, for a stack other CloudFormation stacks import from: the stack is kept,
 * holding only its exports, each fixed at the value it has now, beside a placeholder
 * resource. Its other resources leave it retained (their DeletionPolicy is Retain by then).
 */
export function exportHolderTemplate(exports: ReadonlyArray<{ name: string; value: string }>) {
  return {
    Description: 'Exports of a stack cdkd took over (cdkd import --migrate-from-cloudformation --force)',
    Resources: { [EXPORT_HOLDER_ID]: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
    Outputs: Object.fromEntries(
      exports.map((one, i) => [`Export${i + 1}`, { Value: one.value, Export: { Name: one.name } }]),
    ),
  };
}

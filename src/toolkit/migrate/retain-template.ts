import { CDK_METADATA_TYPE, NESTED_STACK_TYPE } from '../../resource-types/index.js';

/** The logical id of the one resource a stack holding only exports keeps (CloudFormation wants one). */
export const EXPORT_HOLDER_ID = 'CdkdMigratedExports';

/**
 * The template with DeletionPolicy Retain on every resource: deleting the stack then keeps them
 * all. A nested stack's row is the exception: it stays deletable, so deleting the parent deletes
 * the child stack too, which keeps its own resources (its template, at `childUrls`' address, is
 * retained in turn).
 */
export function retainedTemplate(
  template: Record<string, unknown>,
  childUrls: ReadonlyMap<string, string> = new Map(),
): Record<string, unknown> {
  const resources = (template.Resources ?? {}) as Record<string, Record<string, unknown>>;
  return {
    ...template,
    Resources: Object.fromEntries(
      Object.entries(resources).map(([id, resource]) => [id, retainedResource(id, resource, childUrls)]),
    ),
  };
}

function retainedResource(
  id: string,
  resource: Record<string, unknown>,
  childUrls: ReadonlyMap<string, string>,
): Record<string, unknown> {
  if (resource.Type !== NESTED_STACK_TYPE) return { ...resource, DeletionPolicy: 'Retain' };
  const url = childUrls.get(id);
  if (url === undefined) return resource;
  const properties = (resource.Properties ?? {}) as Record<string, unknown>;
  return { ...resource, Properties: { ...properties, TemplateURL: url } };
}

/** True when deleting the stack with this template deletes none of its own resources (nested stacks aside). */
export function retainsEverything(template: Record<string, unknown>): boolean {
  const resources = (template.Resources ?? {}) as Record<string, Record<string, unknown>>;
  return Object.values(resources).every(
    (resource) =>
      resource.DeletionPolicy === 'Retain' ||
      resource.Type === CDK_METADATA_TYPE ||
      resource.Type === NESTED_STACK_TYPE,
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

import { isCustomResourceType } from '../../providers/handled-types.js';
import { NESTED_STACK_TYPE, primaryIdentifierOf, schemaFor } from '../../resource-types/index.js';
import { CdkdError } from '../../errors.js';

/** What export reads of one recorded resource. */
export interface RecordedForExport {
  logicalId: string;
  type: string;
  physicalId: string;
  properties: Record<string, unknown>;
  attributes: Record<string, unknown>;
}

export interface ResourceToImport {
  logicalId: string;
  type: string;
  identifier: Record<string, string>;
}

/**
 * Why CloudFormation cannot import a type, or undefined when it can. The source is cdkd's
 * bundled resource catalog (the registry schemas of @aws-cdk/aws-service-spec): an IMPORT
 * change set names each resource by its schema's primary identifier, so a type with none,
 * one the catalog does not know, and a custom resource (whose "resource" is whatever its
 * handler made) cannot be imported. A nested stack is imported by its own stack id, once its
 * stack is CloudFormation's (see nested-children.ts).
 */
export function notImportable(type: string): string | undefined {
  if (isCustomResourceType(type)) return 'a custom resource cannot be imported';
  if (!schemaFor(type)) return 'the resource catalog does not know the type';
  if (primaryIdentifierOf(type).length === 0) return 'the type has no primary identifier';
  return undefined;
}

/**
 * The resource's identifier as ResourcesToImport wants it, by its type's primary identifier:
 * one property is the physical id; several are the parts of a `|`-joined physical id, else
 * the recorded properties and attributes of those names.
 */
export function importIdentifier(resource: RecordedForExport): Record<string, string> | undefined {
  const keys = primaryIdentifierOf(resource.type);
  if (keys.length === 1) return { [keys[0]!]: resource.physicalId };
  const parts = resource.physicalId.split('|');
  if (parts.length === keys.length) return Object.fromEntries(keys.map((key, i) => [key, parts[i]!]));
  const identifier: Record<string, string> = {};
  for (const key of keys) {
    const value = resource.properties[key] ?? resource.attributes[key];
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    identifier[key] = String(value);
  }
  return identifier;
}

/**
 * The template given to CloudFormation's IMPORT: the deployed one holding only the recorded
 * resources (an IMPORT creates nothing: no CDK metadata, nothing a failed deploy did not
 * make), outputs and DependsOn that name a resource left out dropped, and DeletionPolicy
 * Retain on each resource that has none (CloudFormation requires one on every imported
 * resource), as `cdk import` does.
 */
export function importTemplate(
  template: Record<string, unknown>,
  recorded: ReadonlySet<string>,
  childUrls: ReadonlyMap<string, string> = new Map(),
): Record<string, unknown> {
  const resources = (template.Resources ?? {}) as Record<string, Record<string, unknown>>;
  const left = Object.keys(resources).filter((id) => !recorded.has(id));
  const kept = Object.fromEntries(
    Object.entries(resources)
      .filter(([logicalId]) => recorded.has(logicalId))
      .map(([logicalId, resource]) => [
        logicalId,
        importedResource(withChildUrl(logicalId, resource, childUrls), recorded),
      ]),
  );
  const outputs = (template.Outputs ?? {}) as Record<string, unknown>;
  const keptOutputs = Object.fromEntries(
    Object.entries(outputs).filter(([, output]) => !left.some((id) => references(output, id))),
  );
  return {
    ...template,
    Resources: kept,
    ...(template.Outputs !== undefined ? { Outputs: keptOutputs } : {}),
  };
}

/** A nested stack's row names the template its CloudFormation stack holds (AWS checks they match). */
function withChildUrl(
  logicalId: string,
  resource: Record<string, unknown>,
  childUrls: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const url = childUrls.get(logicalId);
  if (resource.Type !== NESTED_STACK_TYPE || url === undefined) return resource;
  return { ...resource, Properties: { ...(resource.Properties as object | undefined), TemplateURL: url } };
}

function importedResource(resource: Record<string, unknown>, recorded: ReadonlySet<string>) {
  const withPolicy =
    resource.DeletionPolicy === undefined ? { ...resource, DeletionPolicy: 'Retain' } : resource;
  const dependsOn = withPolicy.DependsOn;
  if (dependsOn === undefined) return withPolicy;
  const kept = (Array.isArray(dependsOn) ? dependsOn : [dependsOn]).filter((id) => recorded.has(String(id)));
  const rest = Object.fromEntries(Object.entries(withPolicy).filter(([key]) => key !== 'DependsOn'));
  return kept.length > 0 ? { ...rest, DependsOn: kept } : rest;
}

/** Whether `value` reads resource `id` (Ref, Fn::GetAtt in either form, ${id} in Fn::Sub). */
function references(value: unknown, id: string): boolean {
  if (Array.isArray(value)) return value.some((item) => references(item, id));
  if (typeof value === 'string') return value.includes(`\${${id}}`) || value.includes(`\${${id}.`);
  if (typeof value !== 'object' || value === null) return false;
  const object = value as Record<string, unknown>;
  if (object.Ref === id) return true;
  const getAtt = object['Fn::GetAtt'];
  if (Array.isArray(getAtt) ? getAtt[0] === id : typeof getAtt === 'string' && getAtt.startsWith(`${id}.`))
    return true;
  return Object.values(object).some((item) => references(item, id));
}

/**
 * Parameter values for the IMPORT: the recorded ones, except those CloudFormation takes
 * from their default or resolves itself (SSM-typed, whose recorded value is the resolved
 * one) and NoEcho ones, recorded masked.
 */
export function importParameters(
  template: Record<string, unknown>,
  recorded: Record<string, string | string[]>,
): Record<string, string> {
  const declared = (template.Parameters ?? {}) as Record<string, Record<string, unknown>>;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded)) {
    const parameter = declared[name];
    if (!parameter || parameter.NoEcho === true || parameter.NoEcho === 'true') continue;
    if (String(parameter.Type ?? '').startsWith('AWS::SSM::Parameter::Value')) continue;
    values[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return values;
}

export function notImportableError(stackName: string, refused: readonly string[]): CdkdError {
  return new CdkdError(
    'EXPORT_NOT_IMPORTABLE',
    `CloudFormation cannot import all of stack ${stackName}, so nothing was exported: ${refused.join('; ')}.`,
    {
      hint: 'Remove those resources from the app (or cdkd orphan them) and deploy, then export the stack.',
    },
  );
}

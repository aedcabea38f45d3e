import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

/**
 * The resource types the sandbox's Cloud Control knows, read from the same
 * `generated/resource-index.json` cdkd's planner reads (built by
 * scripts/build-resource-index.mjs). Only the fields the sandbox needs are typed here.
 */
export interface SandboxTypeSchema {
  /** Every property name the schema knows. */
  props: string[];
  /** Read-only properties (Fn::GetAtt names; nested ones dotted, e.g. `Endpoint.Address`). */
  attrs?: string[];
  /** The read-only properties whose values are lists. */
  listAttrs?: string[];
  required?: string[];
  /** Create-only properties: changing one is NotUpdatable. */
  replace?: string[];
  /** Properties whose change may replace, depending on the values. */
  maybe?: string[];
  /** Create-only paths below a property, dotted (`*` = any element). */
  nested?: string[];
  /** One value-kind character per name of `props` (see src/plan/resource-schemas.ts). */
  kinds?: string;
  /** Cloud Control primary identifier properties. */
  id?: string[];
  /** What CloudFormation's Ref returns, when it differs from the primary identifier. */
  refId?: string[];
  /** ARN template with `${Partition}`, `${Region}`, `${Account}` and property variables. */
  arn?: string;
}

const INDEX_PATH = join(PACKAGE_ROOT, 'generated', 'resource-index.json');

let types: Record<string, SandboxTypeSchema> | undefined;

/** The schema of `type`, or undefined for a type Cloud Control does not know. */
export function sandboxSchemaFor(type: string): SandboxTypeSchema | undefined {
  types ??= (JSON.parse(readFileSync(INDEX_PATH, 'utf8')) as { types: Record<string, SandboxTypeSchema> })
    .types;
  return Object.hasOwn(types, type) ? types[type] : undefined;
}

/**
 * Whether the type's schema could carry an update handler: some writable property is not
 * create-only. A type whose every property is create-only or read-only has none (Cloud
 * Control answers its UpdateResource with UnsupportedActionException; CloudFormation replaces).
 */
export function hasUpdateHandler(type: string): boolean {
  const schema = sandboxSchemaFor(type);
  if (!schema) return false;
  const fixed = new Set([...(schema.replace ?? []), ...(schema.attrs ?? [])]);
  return schema.props.some((property) => !fixed.has(property));
}

import { attributesOf, schemaFor } from '../../resource-types/index.js';
import type { JsonObject } from '../provider.js';

/**
 * Fn::GetAtt values from a Cloud Control resource model: the schema's attribute names,
 * a dotted one (`Endpoint.Address`) read from the nested model path.
 */
export function attributesFromModel(type: string, model: JsonObject): JsonObject {
  const attributes: JsonObject = {};
  for (const name of attributesOf(type)) {
    const value = valueAt(model, name);
    if (value !== undefined) attributes[name] = value;
  }
  return attributes;
}

/** The settable properties of a model (read-only values are attributes). */
export function propertiesFromModel(type: string, model: JsonObject): JsonObject {
  const settable = new Set(schemaFor(type)?.properties ?? []);
  return Object.fromEntries(Object.entries(model).filter(([key]) => settable.has(key)));
}

/**
 * What Ref returns when the schema says it differs from the Cloud Control identifier
 * (an API Gateway Resource's ResourceId, not `RestApiId|ResourceId`); else undefined.
 */
export function refFromModel(type: string, model: JsonObject, physicalId: string): string | undefined {
  const schema = schemaFor(type);
  if (!schema) return undefined;
  const parts = schema.refIdentifier.map((name) => valueAt(model, name));
  if (parts.length === 0 || parts.some((part) => part === undefined)) return undefined;
  const ref = parts.map(String).join('|');
  return ref === physicalId ? undefined : ref;
}

function valueAt(model: JsonObject, path: string): unknown {
  let current: unknown = model;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as JsonObject)[segment];
  }
  return current;
}

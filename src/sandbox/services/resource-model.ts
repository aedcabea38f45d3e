import { SandboxError } from '../errors.js';
import { HandlerError, type ResourceModel } from '../resources.js';
import { sandboxSchemaFor } from '../resource-index.js';
import { generatedName, refuseCreateOnlyChanges, validateDesired } from './cloudcontrol/model-builder.js';

/**
 * What a module's resource handler shares with Cloud Control's generic store: the type's
 * schema checks, and the service's own errors answered as the handler's InvalidRequest.
 */

/** Fails InvalidRequest on a property the type's schema does not know or a missing required one. */
export function checkCreate(type: string, desired: ResourceModel): void {
  validateDesired(sandboxSchemaFor(type)!, desired);
}

/** As `checkCreate`, and NotUpdatable when a create-only property changes. */
export function checkUpdate(type: string, current: ResourceModel, desired: ResourceModel): void {
  const schema = sandboxSchemaFor(type)!;
  validateDesired(schema, desired);
  refuseCreateOnlyChanges(schema, current, desired);
}

/** Runs a service operation, its SandboxError becoming the handler's InvalidRequest. */
export async function asHandler<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof SandboxError ? new HandlerError('InvalidRequest', error.message) : error;
  }
}

/** A template's `Tags` list as a key-value map. */
export function tagMap(desired: ResourceModel): Record<string, string> {
  const tags = Array.isArray(desired.Tags) ? (desired.Tags as Array<{ Key: string; Value: unknown }>) : [];
  return Object.fromEntries(tags.map((tag) => [tag.Key, String(tag.Value)]));
}

/** A key-value map as a model's `Tags` (absent when empty, as reads answer). */
export function tagList(tags: Record<string, string>): { Tags?: Array<{ Key: string; Value: string }> } {
  const list = Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
  return list.length > 0 ? { Tags: list } : {};
}

/** A JSON property (an object in a template, or its text) as the text an API attribute holds. */
export function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An attribute's JSON text as a model's object (the text itself when it is not JSON). */
export function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const isTrue = (value: unknown): boolean => value === true || value === 'true';

/** The resource `identifier` names, or the NotFound Cloud Control answers for it. */
export function mustExist<T>(type: string, identifier: string, found: T | undefined): T {
  if (found === undefined) {
    throw new HandlerError(
      'NotFound',
      `Resource of type '${type}' with identifier '${identifier}' was not found.`,
    );
  }
  return found;
}

export function alreadyExists(type: string, identifier: string): HandlerError {
  return new HandlerError(
    'AlreadyExists',
    `Resource of type '${type}' with identifier '${identifier}' already exists.`,
  );
}

/** The name the desired state gives, else one generated CloudFormation-style (`.fifo` added for FIFO). */
export function nameOf(type: string, given: unknown, fifo: boolean): string {
  return typeof given === 'string' ? given : `${generatedName(type)}${fifo ? '.fifo' : ''}`;
}

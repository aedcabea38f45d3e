import { canonicalJson } from '../../plan/index.js';
import {
  describeIdShape,
  exampleId,
  idIsGlobal,
  idShapeOf,
  idShapeProblem,
} from '../../providers/id-shapes.js';
import type { ProviderKind } from '../../providers/index.js';
import { sameId } from '../../resource-types/index.js';
import { nameProperty, readPath } from '../../resource-types/index.js';
import { arnFromNameOf } from '../../resource-types/index.js';
import { partitionForRegion } from '../../template/index.js';
import { holdsPendingValue } from '../planning/index.js';

/** A resource as a record or an import names it. */
export interface NamedResource {
  type: string;
  physicalId: string;
  region: string;
}

/**
 * Whether two names are one resource: the same type and id, compared as spec 000 compares
 * ids (regardless of case for the types AWS matches so), in the same region unless the
 * type's ids are global (an S3 bucket, an IAM role).
 */
export function sameResource(a: NamedResource, b: NamedResource): boolean {
  return (
    a.type === b.type &&
    sameId(a.type, a.physicalId, b.physicalId) &&
    (a.region === b.region || idIsGlobal(a.type))
  );
}

/** The first two choices of one command that name one resource, or undefined. */
export function duplicateChoice<T extends NamedResource & { logicalId: string }>(
  choices: readonly T[],
): [T, T] | undefined {
  for (const [index, later] of choices.entries()) {
    const earlier = choices.slice(0, index).find((choice) => sameResource(choice, later));
    if (earlier) return [earlier, later];
  }
  return undefined;
}

/** Why `physicalId` cannot be the id of a `type` made by `provisionedBy`, with the shape it should have. */
export function idShapeRefusal(
  type: string,
  provisionedBy: ProviderKind,
  physicalId: string,
  where: { region: string; accountId: string },
): { problem: string; expected: string; example?: string; tip?: string } | undefined {
  const shape = idShapeOf(type, provisionedBy);
  const problem = idShapeProblem(shape, physicalId);
  if (problem === undefined) return undefined;
  const example = exampleId(shape, { ...where, partition: partitionForRegion(where.region) });
  return {
    problem,
    expected: describeIdShape(shape),
    ...(example !== undefined && { example }),
    ...(shape.kind === 'url' && shape.tip !== undefined && { tip: shape.tip }),
  };
}

/**
 * The explicit name the template gives a resource, when the id to import names another
 * (CloudFormation's import refuses the same way): the template's name, else undefined.
 */
export function templateNameMismatch(
  type: string,
  desired: Record<string, unknown>,
  physicalId: string,
): string | undefined {
  const rule = nameProperty(type);
  if (!rule || rule.rewritesName) return undefined;
  const name = readPath(desired, rule.path);
  if (typeof name !== 'string' || holdsPendingValue(name)) return undefined;
  const named = rule.fromId ? rule.fromId(physicalId).name : physicalId;
  if (named === undefined) return undefined;
  const fold = rule.fold ?? ((text: string) => text);
  return fold(named) === fold(name) ? undefined : name;
}

/**
 * The physical id a template's explicit name stands for, for the types whose id is the
 * name (or an ARN built from it): what `cdkd import` without --resource looks for. Types
 * whose id AWS assigns (a queue URL, a secret's random suffix) or whose name cdkd rewrites
 * are not offered.
 */
export function physicalIdForName(
  type: string,
  desired: Record<string, unknown>,
  where: { region: string; accountId: string },
): string | undefined {
  const rule = nameProperty(type);
  if (!rule || rule.rewritesName || rule.parent) return undefined;
  const name = readPath(desired, rule.path);
  if (typeof name !== 'string' || name === '' || holdsPendingValue(name)) return undefined;
  const arnOf = arnFromNameOf(type);
  if (arnOf) return arnOf(name, { partition: partitionForRegion(where.region), ...where });
  return rule.fromId ? undefined : name;
}

export interface ImportedProperties {
  /** What the record stores as applied: the template's (masked) value where AWS holds it, AWS's elsewhere. */
  properties: Record<string, unknown>;
  /** What the property hash is taken over, with real values where the template's were used. */
  hashed: Record<string, unknown>;
  /** Template properties AWS holds another value for (or none): the next deploy updates them. */
  differing: string[];
}

/**
 * The applied properties an import records, over the template's properties only (what the
 * template leaves out, a deploy leaves alone). A property AWS holds as the template says is
 * recorded as the template's, so a matching template plans a no-op; one that differs is
 * recorded as AWS holds it, so the next deploy plans the update.
 */
export function importedProperties(
  desired: Record<string, unknown>,
  masked: Record<string, unknown>,
  live: Record<string, unknown>,
): ImportedProperties {
  const properties: Record<string, unknown> = {};
  const hashed: Record<string, unknown> = {};
  const differing: string[] = [];
  for (const key of Object.keys(desired).sort()) {
    if (canonicalJson(desired[key]) === canonicalJson(live[key])) {
      properties[key] = masked[key];
      hashed[key] = desired[key];
      continue;
    }
    differing.push(key);
    if (live[key] === undefined) continue;
    properties[key] = live[key];
    hashed[key] = live[key];
  }
  return { properties, hashed, differing };
}

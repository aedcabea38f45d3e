import { readFileSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import type { ImportChoice } from '../../engine/index.js';
import { CdkdError, messageOf } from '../../errors.js';
import { CDK_METADATA_TYPE, primaryIdentifierOf } from '../../resource-types/index.js';

/**
 * The CDK CLI's resource mapping (`cdk import --resource-mapping`): each logical id to the
 * identifier properties of the resource to adopt, `{ "MyBucket": { "BucketName": "my-bucket" } }`.
 */
export type ResourceMapping = Record<string, Record<string, string>>;

const MAPPING = z.record(z.string().min(1), z.record(z.string().min(1), z.string().min(1)));

/** Reads `--resource-mapping FILE` or `--resource-mapping-inline JSON`, naming which one is wrong. */
export function readResourceMapping(source: { file: string } | { inline: string }): ResourceMapping {
  const named = 'file' in source ? `--resource-mapping ${source.file}` : '--resource-mapping-inline';
  let text: string;
  try {
    text = 'file' in source ? readFileSync(source.file, 'utf8') : source.inline;
  } catch (error) {
    throw new CdkdError('IMPORT_MAPPING_INVALID', `${named} cannot be read: ${messageOf(error)}`, {
      hint: 'Name a JSON file holding { "<logicalId>": { "<identifier property>": "<value>" } }.',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CdkdError('IMPORT_MAPPING_INVALID', `${named} is not JSON: ${messageOf(error)}`, {
      hint: 'For example: { "MyBucket": { "BucketName": "my-existing-bucket" } }',
    });
  }
  const checked = MAPPING.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new CdkdError(
      'IMPORT_MAPPING_INVALID',
      `${named} is not a resource mapping${where}: each logical id maps to an object of identifier properties with string values.`,
      { hint: 'For example: { "MyBucket": { "BucketName": "my-existing-bucket" } }' },
    );
  }
  return checked.data;
}

/**
 * The physical ids a mapping names: a type identified by one property takes its value, one
 * identified by several takes them joined by `|`, in the schema's order (Cloud Control's form).
 */
export function choicesFromMapping(
  mapping: ResourceMapping,
  types: Readonly<Record<string, string>>,
): ImportChoice[] {
  return Object.entries(mapping).map(([logicalId, identifiers]) => {
    const type = types[logicalId];
    if (type === undefined) {
      throw new CdkdError(
        'IMPORT_UNKNOWN_RESOURCE',
        `The resource mapping names ${logicalId}, which the stack's template does not declare.`,
        {
          hint: `Use a logical id of the template (cdkd synth shows them): ${importable(types).join(', ')}.`,
        },
      );
    }
    const names = identifierNames(type);
    const missing = names.filter((name) => identifiers[name] === undefined);
    const extra = Object.keys(identifiers).filter((name) => !names.includes(name));
    if (missing.length > 0 || extra.length > 0) {
      throw new CdkdError(
        'IMPORT_MAPPING_IDENTIFIER',
        `The resource mapping identifies ${logicalId} (${type}) by ${Object.keys(identifiers).join(', ') || 'nothing'}; ${type} is identified by ${names.join(' and ')}.`,
        { hint: `Give ${logicalId} ${names.map((name) => `"${name}"`).join(' and ')}.` },
      );
    }
    return { logicalId, physicalId: names.map((name) => identifiers[name]).join('|') };
  });
}

/** The mapping that names `choices` again (`--record-resource-mapping`). */
export function mappingFromChoices(
  choices: readonly ImportChoice[],
  types: Readonly<Record<string, string>>,
): ResourceMapping {
  const mapping: ResourceMapping = {};
  for (const { logicalId, physicalId } of choices) {
    const names = identifierNames(types[logicalId] ?? '');
    const values = names.length > 1 ? physicalId.split('|') : [physicalId];
    mapping[logicalId] = Object.fromEntries(names.map((name, index) => [name, values[index] ?? '']));
  }
  return mapping;
}

/** Writes a recorded mapping, or says which file could not take it. */
export function writeResourceMapping(file: string, mapping: ResourceMapping): void {
  try {
    writeFileSync(file, `${JSON.stringify(mapping, null, 2)}\n`);
  } catch (error) {
    throw new CdkdError(
      'IMPORT_MAPPING_INVALID',
      `--record-resource-mapping ${file} cannot be written: ${messageOf(error)}`,
      {
        hint: 'Name a file in a directory that exists and can be written.',
      },
    );
  }
}

/** A type's identifier properties; a type the schemas do not know is identified by its physical id. */
function identifierNames(type: string): readonly string[] {
  const names = primaryIdentifierOf(type);
  return names.length > 0 ? names : ['PhysicalId'];
}

/** The template's logical ids a mapping can name: all but the CDK's own metadata row. */
function importable(types: Readonly<Record<string, string>>): string[] {
  return Object.keys(types).filter((logicalId) => types[logicalId] !== CDK_METADATA_TYPE);
}

import { createHash } from 'node:crypto';
import { optionalString, requiredString } from '../../protocols/json.js';
import { parameterNameProblem } from './parameter-name.js';
import { publicParameter } from './public-parameters.js';
import { ssmErrors } from './ssm-errors.js';
import {
  current,
  parameterArn,
  type ParameterRecord,
  type ParameterStore,
  type ParameterType,
  type ParameterVersion,
} from './store.js';

type Input = Record<string, unknown>;

export interface SsmCall {
  store: ParameterStore;
  accountId: string;
  region: string;
  input: Input;
}

const TYPES: ReadonlySet<string> = new Set(['String', 'StringList', 'SecureString']);

/** Writes a parameter (a new version when it exists and Overwrite is set). */
export async function putParameter({ store, region, input }: SsmCall): Promise<unknown> {
  const name = requiredString(input, 'Name');
  const invalidName = parameterNameProblem(name);
  if (invalidName) throw ssmErrors.validation(invalidName);
  const value = requiredString(input, 'Value');
  const type = optionalString(input, 'Type');
  if (type !== undefined && !TYPES.has(type)) throw ssmErrors.unsupportedType(type);
  const existing = store.get(region, name);
  if (existing && input.Overwrite !== true) throw ssmErrors.parameterAlreadyExists();
  if (!existing && type === undefined) {
    throw ssmErrors.validation('A parameter type is required when you create a parameter.');
  }
  const record = writeParameter(store, region, name, value, {
    type: type as ParameterType | undefined,
    description: optionalString(input, 'Description'),
    dataType: optionalString(input, 'DataType'),
    tier: optionalString(input, 'Tier'),
    tags: input.Tags as ParameterRecord['tags'] | undefined,
  });
  await store.save(record);
  return { Version: current(record).version, Tier: record.tier };
}

export interface WriteOptions {
  type?: ParameterType | undefined;
  description?: string | undefined;
  dataType?: string | undefined;
  tier?: string | undefined;
  tags?: ParameterRecord['tags'] | undefined;
}

/** The record with a new current version (shared by PutParameter and Cloud Control). */
export function writeParameter(
  store: ParameterStore,
  region: string,
  name: string,
  value: string,
  options: WriteOptions,
): ParameterRecord {
  const existing = store.get(region, name);
  const version: ParameterVersion = {
    version: existing ? current(existing).version + 1 : 1,
    value,
    lastModified: Date.now(),
    ...(options.description !== undefined ? { description: options.description } : {}),
  };
  return {
    name,
    region,
    type: options.type ?? existing?.type ?? 'String',
    dataType: options.dataType ?? existing?.dataType ?? 'text',
    tier: options.tier ?? existing?.tier ?? 'Standard',
    tags: options.tags ?? existing?.tags ?? [],
    versions: [...(existing?.versions ?? []), version],
  };
}

export async function getParameter(call: SsmCall): Promise<unknown> {
  const name = requiredString(call.input, 'Name');
  return { Parameter: resolve(call, name) };
}

export async function getParameters(call: SsmCall): Promise<unknown> {
  const names = call.input.Names;
  if (!Array.isArray(names) || names.length === 0) {
    throw ssmErrors.validation(
      "1 validation error detected: Value null at 'names' failed to satisfy constraint: Member must not be null",
    );
  }
  const parameters: unknown[] = [];
  const invalid: string[] = [];
  for (const name of names as string[]) {
    try {
      parameters.push(resolve(call, name));
    } catch {
      invalid.push(name);
    }
  }
  return { Parameters: parameters, InvalidParameters: invalid };
}

export async function deleteParameter({ store, region, input }: SsmCall): Promise<unknown> {
  const name = requiredString(input, 'Name');
  const published = publicParameter(region, name);
  if (published) throw ssmErrors.accessDenied('DeleteParameter', parameterArn(published, ''));
  const record = store.get(region, name);
  if (!record) throw ssmErrors.parameterNotFound(name);
  await store.delete(record);
  return {};
}

/** DeleteParameters: up to 10 names; those it does not hold come back as InvalidParameters. */
export async function deleteParameters({ store, region, input }: SsmCall): Promise<unknown> {
  const names = input.Names;
  if (!Array.isArray(names) || names.length === 0 || names.length > 10) {
    throw ssmErrors.validation(
      `1 validation error detected: Value at 'names' failed to satisfy constraint: Member must have length less than or equal to 10`,
    );
  }
  const deleted: string[] = [];
  const invalid: string[] = [];
  for (const name of names.map(String)) {
    const record = store.get(region, name);
    if (record && !publicParameter(region, name)) {
      await store.delete(record);
      deleted.push(name);
    } else {
      invalid.push(name);
    }
  }
  return { DeletedParameters: deleted, InvalidParameters: invalid };
}

interface ParameterFilter {
  Key?: string;
  Option?: string;
  Values?: string[];
}

/** Metadata of the parameters, with the Name filters (Equals / BeginsWith) applied. */
export async function describeParameters({ store, region, accountId, input }: SsmCall): Promise<unknown> {
  const filters = (input.ParameterFilters as ParameterFilter[] | undefined) ?? [];
  const matching = store.list(region).filter((record) =>
    filters.every((filter) => {
      if (filter.Key !== 'Name') return true;
      const values = filter.Values ?? [];
      return filter.Option === 'BeginsWith'
        ? values.some((value) => record.name.startsWith(value))
        : values.includes(record.name);
    }),
  );
  const size = typeof input.MaxResults === 'number' ? input.MaxResults : 50;
  const start =
    typeof input.NextToken === 'string' ? Number(Buffer.from(input.NextToken, 'base64url').toString()) : 0;
  const pageItems = matching.slice(start, start + size);
  const end = start + pageItems.length;
  return {
    Parameters: pageItems.map((record) => {
      const latest = current(record);
      return {
        Name: record.name,
        ARN: parameterArn(record, accountId),
        Type: record.type,
        Version: latest.version,
        LastModifiedDate: latest.lastModified / 1000,
        DataType: record.dataType,
        Tier: record.tier,
        Policies: [],
        ...(latest.description !== undefined ? { Description: latest.description } : {}),
      };
    }),
    ...(end < matching.length ? { NextToken: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}

/** `name`, `name:version` or `name:label` (labels are not modelled) to the Parameter shape. */
export function resolve(
  { store, region, accountId, input }: SsmCall,
  selector: string,
): Record<string, unknown> {
  const named = nameOfSelector(selector, region, accountId);
  if (named === undefined) throw ssmErrors.parameterNotFound(selector);
  const colon = named.lastIndexOf(':');
  const name = colon > 0 ? named.slice(0, colon) : named;
  const versionText = colon > 0 ? named.slice(colon + 1) : undefined;
  const record = store.get(region, name) ?? publicParameter(region, name);
  if (!record) throw ssmErrors.parameterNotFound(selector);
  let version = current(record);
  if (versionText !== undefined) {
    const found = record.versions.find((v) => String(v.version) === versionText);
    if (!found) throw ssmErrors.parameterVersionNotFound(name, versionText);
    version = found;
  }
  const decrypt = input.WithDecryption === true;
  const value = record.type === 'SecureString' && !decrypt ? ciphertext(version.value) : version.value;
  return {
    Name: record.name,
    Type: record.type,
    Value: value,
    Version: version.version,
    ...(versionText !== undefined ? { Selector: `:${versionText}` } : {}),
    LastModifiedDate: version.lastModified / 1000,
    ARN: parameterArn(record, accountId),
    DataType: record.dataType,
  };
}

const PARAMETER_ARN = /^arn:aws[\w-]*:ssm:([^:]*):(\d*):parameter\/(.+)$/;

/**
 * A selector as a name with its optional `:version`: GetParameter(s) take the parameter's ARN
 * too (how the CDK's `fromStringParameterArn` and shared parameters name one). Hierarchical
 * names start with `/`, which the ARN drops. An ARN of another region or account names
 * nothing here.
 */
function nameOfSelector(selector: string, region: string, accountId: string): string | undefined {
  const arn = PARAMETER_ARN.exec(selector);
  if (!arn) return selector;
  const [, arnRegion, arnAccount, path] = arn;
  if (arnRegion !== region || (arnAccount !== '' && arnAccount !== accountId)) return undefined;
  return path!.split(':')[0]!.includes('/') ? `/${path}` : path;
}

/** What GetParameter returns for a SecureString read without decryption: an opaque blob. */
function ciphertext(value: string): string {
  return Buffer.concat([Buffer.from('AQICAH'), createHash('sha256').update(value).digest()]).toString(
    'base64',
  );
}

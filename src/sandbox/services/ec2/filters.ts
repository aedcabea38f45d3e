import { structParams, listParam } from '../../protocols/ec2-query.js';
import { ec2Errors } from './ec2-errors.js';

export interface Filter {
  name: string;
  values: string[];
}

export type Tags = ReadonlyArray<{ Key: string; Value: string }>;

/** `Filter.N.Name` / `Filter.N.Value.M` from an EC2 request. */
export function filtersOf(params: URLSearchParams): Filter[] {
  return structParams(params, 'Filter').map((member) => ({
    name: member.get('Name') ?? '',
    values: listParam(member, 'Value'),
  }));
}

/**
 * Whether a resource passes every filter: each filter's values are OR-ed, filters AND-ed,
 * `*` and `?` are wildcards as in EC2. `fields` gives the resource's values for a filter
 * name it supports; `tag:Key`, `tag-key` and `tag-value` are read from `tags`. A filter name
 * the resource kind does not know is EC2's InvalidParameterValue.
 */
export function passes(
  filters: readonly Filter[],
  fields: Readonly<Record<string, ReadonlyArray<string | undefined> | string | boolean | undefined>>,
  tags: Tags = [],
): boolean {
  return filters.every((filter) => {
    const actual = valuesFor(filter.name, fields, tags);
    return filter.values.some((wanted) => actual.some((value) => wildcard(wanted).test(value)));
  });
}

function valuesFor(
  name: string,
  fields: Readonly<Record<string, ReadonlyArray<string | undefined> | string | boolean | undefined>>,
  tags: Tags,
): string[] {
  if (name.startsWith('tag:')) return tags.filter((tag) => tag.Key === name.slice(4)).map((tag) => tag.Value);
  if (name === 'tag-key') return tags.map((tag) => tag.Key);
  if (name === 'tag-value') return tags.map((tag) => tag.Value);
  if (!Object.hasOwn(fields, name)) throw ec2Errors.invalidFilter(name);
  const value = fields[name];
  if (value === undefined) return [];
  if (typeof value === 'boolean') return [String(value)];
  if (typeof value === 'string') return [value];
  return value.filter((item): item is string => item !== undefined);
}

function wildcard(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

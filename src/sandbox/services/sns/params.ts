import { snsErrors } from './sns-errors.js';

/** Readers for the query protocol's flattened members, as the SNS client sends them. */

/** `Name.entry.N.key` / `Name.entry.N.value` pairs as a map. */
export function entryMap(params: URLSearchParams, name: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (let n = 1; params.has(`${name}.entry.${n}.key`); n += 1) {
    map[params.get(`${name}.entry.${n}.key`)!] = params.get(`${name}.entry.${n}.value`) ?? '';
  }
  return map;
}

/** `Tags.member.N.Key` / `.Value` as a map. */
export function tagMembers(params: URLSearchParams): Record<string, string> {
  const tags: Record<string, string> = {};
  for (let n = 1; params.has(`Tags.member.${n}.Key`); n += 1) {
    tags[params.get(`Tags.member.${n}.Key`)!] = params.get(`Tags.member.${n}.Value`) ?? '';
  }
  return tags;
}

/** `Name.member.N` as a list. */
export function members(params: URLSearchParams, name: string): string[] {
  const list: string[] = [];
  for (let n = 1; params.has(`${name}.member.${n}`); n += 1) list.push(params.get(`${name}.member.${n}`)!);
  return list;
}

export function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value === '') throw snsErrors.invalidParameter(`${name}`);
  return value;
}

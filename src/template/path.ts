/**
 * A location in the template, built as a linked list so that descending into a value costs
 * one small allocation and the dotted string is only formatted when an error needs it.
 */
export interface TemplatePath {
  readonly parent: TemplatePath | undefined;
  readonly key: string | number;
}

export function rootPath(...keys: Array<string | number>): TemplatePath {
  let path: TemplatePath | undefined;
  for (const key of keys) path = { parent: path, key };
  if (path === undefined) throw new Error('rootPath needs at least one key');
  return path;
}

export function childPath(parent: TemplatePath, key: string | number): TemplatePath {
  return { parent, key };
}

/** `Resources.Fn.Properties.Subnets[1]` */
export function formatPath(path: TemplatePath): string {
  const keys: Array<string | number> = [];
  for (let p: TemplatePath | undefined = path; p !== undefined; p = p.parent) keys.push(p.key);
  let out = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? key : `.${key}`;
  }
  return out;
}

/** RFC 6902 JSON Patch, as Cloud Control's UpdateResource applies a PatchDocument. */

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export class PatchError extends Error {}

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Parses a PatchDocument string; throws PatchError when it is not an RFC 6902 document. */
export function parsePatch(document: string): PatchOperation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(document);
  } catch {
    throw new PatchError('Invalid patch document: not valid JSON');
  }
  if (!Array.isArray(parsed)) throw new PatchError('Invalid patch document: expected an array of operations');
  for (const op of parsed as Array<Partial<PatchOperation>>) {
    const valid =
      typeof op === 'object' &&
      op !== null &&
      OPS.has(op.op ?? '') &&
      typeof op.path === 'string' &&
      (!['add', 'replace', 'test'].includes(op.op!) || 'value' in op) &&
      (!['move', 'copy'].includes(op.op!) || typeof op.from === 'string');
    if (!valid) throw new PatchError(`Invalid patch document: bad operation ${JSON.stringify(op)}`);
  }
  return parsed as PatchOperation[];
}

/** Applies the operations to a copy of `document`, in order; throws PatchError on a bad path. */
export function applyPatch<T>(document: T, operations: readonly PatchOperation[]): T {
  let root: unknown = structuredClone(document);
  for (const op of operations) {
    switch (op.op) {
      case 'add':
        root = put(root, op.path, structuredClone(op.value), 'add');
        break;
      case 'replace':
        get(root, op.path);
        root = put(root, op.path, structuredClone(op.value), 'replace');
        break;
      case 'remove':
        root = remove(root, op.path);
        break;
      case 'move': {
        const value = get(root, op.from!);
        root = put(remove(root, op.from!), op.path, value, 'add');
        break;
      }
      case 'copy':
        root = put(root, op.path, structuredClone(get(root, op.from!)), 'add');
        break;
      case 'test':
        if (JSON.stringify(get(root, op.path)) !== JSON.stringify(op.value)) {
          throw new PatchError(`Test operation failed at ${op.path}`);
        }
        break;
    }
  }
  return root as T;
}

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`Invalid JSON pointer ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(root: unknown, pointer: string): { parent: unknown; key: string } {
  const path = tokens(pointer);
  if (path.length === 0) return { parent: undefined, key: '' };
  const key = path.pop()!;
  const parent = path.reduce<unknown>((node, token) => child(node, token, pointer), root);
  if (typeof parent !== 'object' || parent === null) throw new PatchError(`No such path ${pointer}`);
  return { parent, key };
}

function child(node: unknown, token: string, pointer: string): unknown {
  if (typeof node !== 'object' || node === null || !Object.hasOwn(node, token)) {
    throw new PatchError(`No such path ${pointer}`);
  }
  return (node as Record<string, unknown>)[token];
}

function get(root: unknown, pointer: string): unknown {
  return tokens(pointer).reduce<unknown>((node, token) => child(node, token, pointer), root);
}

function put(root: unknown, pointer: string, value: unknown, mode: 'add' | 'replace'): unknown {
  const { parent, key } = parentOf(root, pointer);
  if (parent === undefined) return value;
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) {
      throw new PatchError(`Bad array index ${pointer}`);
    }
    if (mode === 'add') parent.splice(index, 0, value);
    else parent[index] = value;
  } else {
    (parent as Record<string, unknown>)[key] = value;
  }
  return root;
}

function remove(root: unknown, pointer: string): unknown {
  get(root, pointer);
  const { parent, key } = parentOf(root, pointer);
  if (parent === undefined) return undefined;
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete (parent as Record<string, unknown>)[key];
  return root;
}

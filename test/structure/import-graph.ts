import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import between two files under src/, as written. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import('...')`: a lazily loaded module. */
  dynamic: boolean;
}

/** Every .ts/.tsx file under `src` (relative, `/`-separated) and the imports between them. */
export function importGraph(src: string): { files: string[]; edges: ImportEdge[] } {
  const files = listSources(src);
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(join(src, file), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    for (const imported of info.importedFiles) {
      const to = resolveImport(known, file, imported.fileName);
      if (!to || to === file) continue;
      const before = text.slice(Math.max(0, imported.pos - 40), imported.pos);
      edges.push({ from: file, to, dynamic: /import\s*\(\s*$/.test(before) });
    }
  }
  return { files, edges };
}

function listSources(src: string, dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(src, path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [relative(src, path).split(sep).join('/')]
      : [];
  });
}

function resolveImport(known: Set<string>, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = relative('/', resolve('/', dirname(from), specifier))
    .split(sep)
    .join('/')
    .replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => known.has(candidate));
}

/** The strongly connected components with more than one file: each is an import cycle. */
export function importCycles(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const edge of edges) next.get(edge.from)!.push(edge.to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

/** The top-level folder of a file under src/, or `(root)` for the files at its root. */
export function topFolder(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)';
}

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import between two files under src/, as written. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import('...')`: a lazily loaded module. */
  dynamic: boolean;
  /** `import type` / `export type`, or every name imported marked `type`: erased at run time. */
  typeOnly: boolean;
}

/** Every .ts/.tsx file under `src` (relative, `/`-separated) and the imports between them. */
export function importGraph(src: string): { files: string[]; edges: ImportEdge[] } {
  const files = listSources(src);
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(join(src, file), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const add = (specifier: ts.Expression | undefined, dynamic: boolean, typeOnly: boolean): void => {
      if (!specifier || !ts.isStringLiteralLike(specifier)) return;
      const to = resolveImport(known, file, specifier.text);
      if (to && to !== file) edges.push({ from: file, to, dynamic, typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, false, importsOnlyTypes(node));
      else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, false, node.isTypeOnly);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        add(node.arguments[0], true, false);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        add(node.argument.literal, false, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { files, edges };
}

function importsOnlyTypes(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
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

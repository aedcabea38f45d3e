import { canonicalJson } from '../plan/index.js';
import type { StateDocument, StateStore } from '../state/index.js';

type ExportingDocument = Pick<StateDocument, 'stackName' | 'outputs' | 'imports'>;

interface ExportEntry {
  stackName: string;
  value: unknown;
}

/**
 * The exports and imports of every stack cdkd deployed in a region, read from
 * their state documents: what Fn::ImportValue resolves against, and who still
 * imports an export a deploy would remove.
 */
export class ExportIndex {
  private constructor(
    private readonly exports: Map<string, ExportEntry>,
    private readonly importers: Map<string, string[]>,
  ) {}

  static async load(store: StateStore, region: string): Promise<ExportIndex> {
    const refs = (await store.list()).filter((ref) => ref.region === region);
    const documents = await Promise.all(refs.map(async (ref) => (await store.read(ref))?.document));
    return ExportIndex.from(documents.filter((doc): doc is StateDocument => doc !== undefined));
  }

  static from(documents: readonly ExportingDocument[]): ExportIndex {
    const exports = new Map<string, ExportEntry>();
    const importers = new Map<string, string[]>();
    for (const doc of documents) {
      for (const output of Object.values(doc.outputs)) {
        if (output.exportName)
          exports.set(output.exportName, { stackName: doc.stackName, value: output.value });
      }
      for (const name of doc.imports) importers.set(name, [...(importers.get(name) ?? []), doc.stackName]);
    }
    return new ExportIndex(exports, importers);
  }

  value(name: string): unknown {
    return this.exports.get(name)?.value;
  }

  exporterOf(name: string): string | undefined {
    return this.exports.get(name)?.stackName;
  }

  /** Stacks other than `except` that import `name`. */
  importersOf(name: string, except: string): string[] {
    return (this.importers.get(name) ?? []).filter((stack) => stack !== except);
  }

  /**
   * The given exports of `stack` that other stacks still import, as one line per
   * export for a refusal message; empty when none is imported.
   */
  stillImported(stack: string, exportNames: Iterable<string>): string[] {
    return [...exportNames]
      .map((name) => ({ name, importers: this.importersOf(name, stack) }))
      .filter((entry) => entry.importers.length > 0)
      .map((entry) => `${entry.name} (imported by ${entry.importers.join(', ')})`);
  }

  /**
   * CloudFormation's refusal, one line per export, for each export of `stack` whose value
   * `values` changes while another stack imports it; empty when none does.
   */
  changedWhileImported(stack: string, values: ReadonlyMap<string, unknown>): string[] {
    return [...values].flatMap(([name, value]) => {
      const entry = this.exports.get(name);
      if (!entry || entry.stackName !== stack || canonicalJson(entry.value) === canonicalJson(value))
        return [];
      const importers = this.importersOf(name, stack);
      return importers.length > 0
        ? [`Cannot update export ${name} as it is in use by ${importers.join(', ')}`]
        : [];
    });
  }

  /** Whether another stack than `stack` imports `name`. */
  isImportedElsewhere(name: string, stack: string): boolean {
    return this.importersOf(name, stack).length > 0;
  }

  /** Records a stack's new exports and imports, so later stacks of the same run see them. */
  update(document: ExportingDocument): void {
    for (const [name, entry] of this.exports)
      if (entry.stackName === document.stackName) this.exports.delete(name);
    for (const [name, stacks] of this.importers) {
      this.importers.set(
        name,
        stacks.filter((stack) => stack !== document.stackName),
      );
    }
    const fresh = ExportIndex.from([document]);
    for (const [name, entry] of fresh.exports) this.exports.set(name, entry);
    for (const [name, stacks] of fresh.importers)
      this.importers.set(name, [...(this.importers.get(name) ?? []), ...stacks]);
  }

  /**
   * A dry run planned `stackName`: its exports that no deployed stack declares get their
   * planned values (placeholders where known only after deploy), so the later stacks of the
   * run plan against them as their deploys would. A deployed export keeps its value: a
   * recreated target moves it through the run's moving imports instead.
   */
  planned(stackName: string, values: ReadonlyMap<string, unknown>): void {
    for (const [name, value] of values) {
      if (!this.exports.has(name)) this.exports.set(name, { stackName, value });
    }
  }

  forget(stackName: string): void {
    this.update({ stackName, outputs: {}, imports: [] });
  }
}

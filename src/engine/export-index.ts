import { canonicalJson } from '../plan/index.js';
import type { StateDocument, StateStore } from '../state/index.js';

type ExportingDocument = Pick<StateDocument, 'stackName' | 'outputs' | 'imports'>;

interface ExportEntry {
  stackName: string;
  value: unknown;
}

/** CloudFormation's side of a region (ListExports, ListImports), for the stacks still on it. */
export interface CloudFormationExportSource {
  exports(): Promise<ReadonlyArray<{ name: string; value: string; stackName: string }>>;
  importers(name: string): Promise<string[]>;
}

/** Where an export name resolves: a stack cdkd deployed, or one still on CloudFormation. */
export interface ExportSource {
  side: 'cdkd' | 'cloudformation';
  stackName: string;
}

/** An export name both sides hold: CloudFormation allows one per region, so neither is picked. */
export interface AmbiguousExport {
  name: string;
  cdkdStack: string;
  cloudFormationStack: string;
}

/**
 * The exports and imports of every stack cdkd deployed in a region, read from
 * their state documents: what Fn::ImportValue resolves against, and who still
 * imports an export a deploy would remove.
 */
export class ExportIndex {
  /** CloudFormation's exports, read once per run and only when a stack needs them. */
  private cloudFormationExports: Promise<Map<string, ExportEntry>> | undefined;
  private cloudFormationLoaded: Map<string, ExportEntry> | undefined;
  private readonly cloudFormationImportersOf = new Map<string, Promise<string[]>>();
  private cloudFormation: CloudFormationExportSource | undefined;

  private constructor(
    private readonly exports: Map<string, ExportEntry>,
    private readonly importers: Map<string, string[]>,
  ) {}

  static async load(
    store: StateStore,
    region: string,
    cloudFormation?: CloudFormationExportSource,
  ): Promise<ExportIndex> {
    const refs = (await store.list()).filter((ref) => ref.region === region);
    const documents = await Promise.all(refs.map(async (ref) => (await store.read(ref))?.document));
    return ExportIndex.from(documents.filter((doc): doc is StateDocument => doc !== undefined)).readingFrom(
      cloudFormation,
    );
  }

  /** Reads the stacks still on CloudFormation from `cloudFormation` when cdkd's own exports do not answer. */
  readingFrom(cloudFormation: CloudFormationExportSource | undefined): this {
    this.cloudFormation = cloudFormation;
    return this;
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

  /** cdkd's export first; a name both sides hold is refused before it is used (refuseAmbiguousImports). */
  value(name: string): unknown {
    return (this.exports.get(name) ?? this.cloudFormationLoaded?.get(name))?.value;
  }

  /**
   * Reads CloudFormation's exports when `names` holds one no cdkd stack exports, or `dynamic`
   * (an Fn::ImportValue whose name is computed): a run whose imports cdkd holds makes no call.
   */
  async readCloudFormationFor(names: Iterable<string>, dynamic: boolean): Promise<void> {
    if (!this.cloudFormation) return;
    if (!dynamic && [...names].every((name) => this.exports.has(name))) return;
    await this.readCloudFormation();
  }

  /** CloudFormation's exports of the region, read at most once. */
  async readCloudFormation(): Promise<void> {
    const source = this.cloudFormation;
    if (!source) return;
    this.cloudFormationExports ??= source
      .exports()
      .then(
        (entries) =>
          new Map(entries.map((entry) => [entry.name, { stackName: entry.stackName, value: entry.value }])),
      );
    this.cloudFormationLoaded = await this.cloudFormationExports;
  }

  /** The CloudFormation stack exporting `name`, as far as CloudFormation's exports were read. */
  cloudFormationExporterOf(name: string): string | undefined {
    return this.cloudFormationLoaded?.get(name)?.stackName;
  }

  /**
   * The CloudFormation stacks importing `name` (none without a CloudFormation source), asked
   * once per run: the no-op check and the deploy under the lock plan the same stack.
   */
  async cloudFormationImporters(name: string): Promise<string[]> {
    const source = this.cloudFormation;
    if (!source) return [];
    let importers = this.cloudFormationImportersOf.get(name);
    if (!importers) {
      importers = source.importers(name);
      this.cloudFormationImportersOf.set(name, importers);
    }
    return importers;
  }

  sourceOf(name: string): ExportSource | undefined {
    const own = this.exports.get(name);
    if (own) return { side: 'cdkd', stackName: own.stackName };
    const cloudFormation = this.cloudFormationLoaded?.get(name);
    return cloudFormation && { side: 'cloudformation', stackName: cloudFormation.stackName };
  }

  /** The names among `names` that a cdkd stack and a CloudFormation stack both export. */
  ambiguous(names: Iterable<string>): AmbiguousExport[] {
    return [...new Set(names)].flatMap((name) => {
      const own = this.exports.get(name);
      const other = this.cloudFormationLoaded?.get(name);
      return own && other ? [{ name, cdkdStack: own.stackName, cloudFormationStack: other.stackName }] : [];
    });
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

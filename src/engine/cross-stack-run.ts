import type { MovingExport } from '../plan/index.js';
import { replacementOf } from '../resource-types/index.js';
import { collectImports, rootPath } from '../template/index.js';
import { isPlainObject } from '../template/model.js';
import { topLevelProperty } from './desired-resources.js';
import type { StackRequest } from './stack-request.js';

/** A resource of another stack of the run that reads a moving export. */
export interface ImportReader {
  stack: string;
  logicalId: string;
  type: string;
  /** Its referencing property is create-only: replaced if the target's id changes. */
  createOnly: boolean;
  updateReplacePolicy?: string;
}

interface Announced {
  exporter: string;
  /** What an importer's plan calls it: `Exporter/Target`. */
  label: string;
  moved: boolean;
}

/**
 * What the stacks of one `cdkd deploy` know of each other: which deploys after which (CDK
 * makes an importing stack depend on its exporter), the exports a stack's recreated targets
 * move (so the importers' plans follow them), and the old copies held until the importers
 * that read them have deployed. Shared by every stack's deploy in the run, preflight included.
 */
export class CrossStackRun {
  private readonly announced = new Map<string, Announced>();
  private readonly holding = new Map<string, { request: StackRequest; importers: Set<string> }>();

  /**
   * @param upstream per stack (by state name), the stacks of the run it deploys after
   * @param templates per stack, its template, to find the readers of an export
   */
  constructor(
    private readonly upstream: ReadonlyMap<string, ReadonlySet<string>>,
    private readonly templates: ReadonlyMap<string, Record<string, unknown>>,
  ) {}

  /** Whether `importer` is a stack of this run that deploys after `exporter`. */
  deploysAfter(importer: string, exporter: string): boolean {
    return this.upstream.get(importer)?.has(exporter) ?? false;
  }

  /** Records the exports `exporter`'s plan moves, so its importers' plans follow them. */
  announce(exporter: string, moving: readonly MovingExport[]): void {
    for (const entry of moving) {
      const label = `${exporter}/${entry.targets.join(',')}`;
      this.announced.set(entry.exportName, { exporter, label, moved: false });
    }
  }

  /** Exports another stack moves before `stack` deploys, by name → what its plan calls them. */
  movingImports(stack: string): Map<string, string> {
    return new Map(
      [...this.announced]
        .filter(([, entry]) => !entry.moved && entry.exporter !== stack)
        .map(([name, entry]) => [name, entry.label]),
    );
  }

  /** `exporter` deployed: its exports hold their new values, which importers now plan against. */
  moved(exporter: string): void {
    for (const entry of this.announced.values()) if (entry.exporter === exporter) entry.moved = true;
  }

  /** `exporter` keeps old copies of recreated resources until `importers` have deployed. */
  hold(request: StackRequest, importers: Iterable<string>): void {
    const entry = this.holding.get(request.stateName) ?? { request, importers: new Set<string>() };
    for (const importer of importers) entry.importers.add(importer);
    this.holding.set(request.stateName, entry);
  }

  /** The exporters holding old copies, each with the importers it waits for. */
  held(): { request: StackRequest; importers: string[] }[] {
    return [...this.holding.values()].map((entry) => ({
      request: entry.request,
      importers: [...entry.importers].sort(),
    }));
  }

  /** The resources of `importers` that read `exportName`, from their templates. */
  readersOf(exportName: string, importers: readonly string[]): ImportReader[] {
    return importers.flatMap((stack) => {
      const resources = this.templates.get(stack)?.['Resources'];
      if (!isPlainObject(resources)) return [];
      return Object.entries(resources).flatMap(([logicalId, resource]) => {
        if (!isPlainObject(resource) || typeof resource['Type'] !== 'string') return [];
        const type = resource['Type'];
        const base = rootPath('Resources', logicalId, 'Properties');
        const properties = collectImports(resource['Properties'], base)
          .filter((read) => read.name === exportName)
          .map((read) => topLevelProperty(read.path));
        if (properties.length === 0) return [];
        const policy = resource['UpdateReplacePolicy'];
        return [
          {
            stack,
            logicalId,
            type,
            createOnly: properties.some((property) => replacementOf(type, property) === 'yes'),
            ...(typeof policy === 'string' && { updateReplacePolicy: policy }),
          },
        ];
      });
    });
  }
}

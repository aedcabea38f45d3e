import type { MovingExport } from '../../plan/index.js';
import { replacementOf } from '../../resource-types/index.js';
import { collectImports, rootPath } from '../../template/index.js';
import { isPlainObject } from '../../template/model.js';
import { topLevelProperty } from '../planning/index.js';
import type { CrossStack, ImportReader, StackRequest } from '../stack-request.js';

/** A resource of another stack of the run that reads a moving export. */
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
export class CrossStackRun implements CrossStack {
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

  deploysAfter(importer: string, exporter: string): boolean {
    return this.upstream.get(importer)?.has(exporter) ?? false;
  }

  announce(exporter: string, moving: readonly MovingExport[]): void {
    for (const entry of moving) {
      const label = `${exporter}/${entry.targets.join(',')}`;
      this.announced.set(entry.exportName, { exporter, label, moved: false });
    }
  }

  movingImports(stack: string): Map<string, string> {
    return new Map(
      [...this.announced]
        .filter(([, entry]) => !entry.moved && entry.exporter !== stack)
        .map(([name, entry]) => [name, entry.label]),
    );
  }

  moved(exporter: string): void {
    for (const entry of this.announced.values()) if (entry.exporter === exporter) entry.moved = true;
  }

  hold(request: StackRequest, importers: Iterable<string>): void {
    const entry = this.holding.get(request.stateName) ?? { request, importers: new Set<string>() };
    for (const importer of importers) entry.importers.add(importer);
    this.holding.set(request.stateName, entry);
  }

  held(): { request: StackRequest; importers: string[] }[] {
    return [...this.holding.values()].map((entry) => ({
      request: entry.request,
      importers: [...entry.importers].sort(),
    }));
  }

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

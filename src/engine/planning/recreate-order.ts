import { nameProperty, readPath } from '../../resource-types/index.js';
import { keepsResource } from '../../template/index.js';

export interface RecreateOrderInput {
  type: string;
  /** What the re-create sends. */
  desired: Record<string, unknown>;
  /** The old resource's recorded properties. */
  recorded: Record<string, unknown>;
  updateReplacePolicy?: string;
  /** Other stacks of the run read it through an export and deploy after it (cross-stack-run.ts). */
  importedElsewhere?: boolean;
}

/**
 * The order of a `--recreate-via-*` replacement or a Cloud Control UnsupportedAction fallback
 * (spec 001, spec 002): the old resource is deleted first, so the new one can take its name,
 * unless the template also renames it (nothing to free: create first, looking the new name
 * up as any replacement does) or its UpdateReplacePolicy keeps it (never deleted).
 * `create-first` here means "the ordinary replacement path". One that other stacks of the run
 * read through an export and that the template does not name is created first too: there is no
 * name to free, and the old copy must outlive those stacks' deploys, which move their readers.
 */
export function recreateOrder(input: RecreateOrderInput): 'create-first' | 'delete-first' {
  if (keepsResource(input.updateReplacePolicy)) return 'create-first';
  if (input.importedElsewhere && !named(input)) return 'create-first';
  return renames(input) ? 'create-first' : 'delete-first';
}

/** The template names the resource explicitly. */
function named({ type, desired }: RecreateOrderInput): boolean {
  const rule = nameProperty(type);
  return rule !== undefined && typeof readPath(desired, rule.path) === 'string';
}

/** The template names the resource explicitly, and not as recorded. */
function renames({ type, desired, recorded }: RecreateOrderInput): boolean {
  const rule = nameProperty(type);
  if (!rule) return false;
  const wanted = readPath(desired, rule.path);
  if (typeof wanted !== 'string') return false;
  const had = readPath(recorded, rule.path);
  const fold = rule.fold ?? ((name: string) => name);
  return typeof had !== 'string' || fold(had) !== fold(wanted);
}

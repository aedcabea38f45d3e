import type { ApprovalLevel, MovingExport, PlannedOperation, RecreateLayer } from '../plan/index.js';
import type { RoutingOptions } from '../providers/index.js';
import type { AssetObject } from '../state/index.js';
import type { ParameterValue } from '../template/index.js';

export type { DataLossConfirmation } from '../messages/index.js';

/** A nested stack's template, found in the cloud assembly by its parent's logical id. */
export interface NestedTemplate {
  template: Record<string, unknown>;
  nested: ReadonlyMap<string, NestedTemplate>;
  /** The file the assembly holds it in, which the nested-stack provider walks again (spec 002). */
  templateFile?: string;
}

/** One stack to deploy: its template (asset references already pointing at cdkd's bucket) and inputs. */
export interface StackRequest {
  /** The name state is kept under; nested stacks use `{parent}/{logicalId}`. */
  stateName: string;
  /** AWS::StackName as the template sees it. */
  stackName: string;
  region: string;
  accountId: string;
  template: Record<string, unknown>;
  parameters?: Record<string, ParameterValue>;
  tags?: Record<string, string>;
  /** The app's `terminationProtection`: recorded by a deploy, refused by a destroy while on. */
  terminationProtection?: boolean;
  nested?: ReadonlyMap<string, NestedTemplate>;
  /** Nested stacks lock their own state and fail fast on contention (spec 003). */
  isNested?: boolean;
  /** The app's output directory its nested templates must stay inside (spec 002). */
  assemblyDir?: string;
  /** The asset bucket's objects the template reads: the generation a successful deploy records names them. */
  assets?: readonly AssetObject[];
  /** `cdkd undo`: the generation this deploy puts the stack back to. */
  undoneTo?: number;
}

export interface DeployOptions {
  concurrency: number;
  dryRun?: boolean;
  forceStatefulRecreation?: boolean;
  /** --replace: a replacement whose new name the old resource provably holds deletes it first. */
  replace?: boolean;
  /**
   * `--recreate-via-cc-api` / `--recreate-via-sdk-provider`: logical id → the layer to destroy
   * and re-create it on, in whichever stack of the run (nested ones included) holds the id.
   */
  recreateVia?: Readonly<Record<string, RecreateLayer>>;
  /**
   * A dry run planning one stack of a multi-stack run before any deploys: names are looked up
   * only by the stack's own planning, since an earlier stack of the run may free one.
   */
  preflight?: boolean;
  signal?: AbortSignal;
  /** False (`--no-rollback`): a failed deploy stays as it stopped, its journal kept for cdkd rollback. */
  rollback?: boolean;
  /** `--fix-forward`: deploy over a stack whose last rollback failed (spec 004, UPDATE_ROLLBACK_FAILED). */
  fixForward?: boolean;
  /** --prefix-user-supplied-names: explicit names of the rewriting types get `{stack}-`. */
  prefixUserSuppliedNames?: boolean;
  /**
   * False under `--no-wait`: an attribute read live from a resource still coming up (an EC2
   * instance still pending) is refused at once instead of waited for.
   */
  wait?: boolean;
  /**
   * Report the deploy's operations and the stack's past operation times on its start event
   * (the live view's ETA): reads the stack's most recent events, only when there is work.
   */
  estimate?: boolean;
  /** One id for the whole run, shared by a stack and its nested stacks' journal segments. */
  runId?: string;
  /** `cdkd destroy --remove-protection`: deletes turn a resource's deletion protection off first. */
  removeProtection?: boolean;
  /** `--require-approval`: which changes stop the deploy to ask (default: none). */
  requireApproval?: ApprovalLevel;
  /** Stacks (state names) the run's preflight already put to `requireApproval`. */
  approvalAsked?: ReadonlySet<string>;
  /** --prefer-sdk-route and --pin-cc-api (spec 002, 003 "Routing"). */
  routing?: RoutingOptions;
  /**
   * The stacks of a `cdkd deploy` run and what they tell each other: a stack's recreated
   * target whose export another stack imports moves only when that stack deploys after it.
   */
  crossStack?: CrossStack;
  /**
   * `cdkd deploy --plan`: what `cdkd diff --out` saved for this stack. Under the lock, state
   * must still carry that ETag and the plan made now must hold the same operations, or the
   * deploy refuses before it writes anything. Nested stacks deployed by their parent ignore it.
   */
  savedPlan?: SavedStackPlan;
}

/** The part of a saved plan the engine checks under the lock. */
export interface SavedStackPlan {
  /** The plan file, named in a refusal. */
  file: string;
  /** The ETag of the state the plan was made from; null when the stack had no state. */
  stateEtag: string | null;
  operations: readonly PlannedOperation[];
}

/** A resource of another stack of the run that reads an export. */
export interface ImportReader {
  stack: string;
  logicalId: string;
  type: string;
  /** Its referencing property is create-only: replaced if the target's id changes. */
  createOnly: boolean;
  updateReplacePolicy?: string;
}

/**
 * What a stack's plan and deploy ask of the other stacks of a `cdkd deploy` run
 * (deploy/cross-stack-run.ts holds it): the request carries it, planning and deploy read it.
 */
export interface CrossStack {
  /** Whether `importer` is a stack of this run that deploys after `exporter`. */
  deploysAfter(importer: string, exporter: string): boolean;
  /** Records the exports `exporter`'s plan moves, so its importers' plans follow them. */
  announce(exporter: string, moving: readonly MovingExport[]): void;
  /** Exports another stack moves before `stack` deploys, by name → what its plan calls them. */
  movingImports(stack: string): Map<string, string>;
  /** `exporter` deployed: its exports hold their new values, which importers now plan against. */
  moved(exporter: string): void;
  /** `exporter` keeps old copies of recreated resources until `importers` have deployed. */
  hold(request: StackRequest, importers: Iterable<string>): void;
  /** The exporters holding old copies, each with the importers it waits for. */
  held(): { request: StackRequest; importers: string[] }[];
  /** The resources of `importers` that read `exportName`, from their templates. */
  readersOf(exportName: string, importers: readonly string[]): ImportReader[];
}

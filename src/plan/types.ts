import type { ResourceRecord } from '../state/index.js';
import type { RegistryAnswer, VerdictSource } from './registry-schema.js';

/** How a resource reads another one of the same stack, or another stack's export. */
export interface ResourceRead {
  /** The logical id read; for `import`, the export name. */
  target: string;
  /** The reader's top-level property holding the reference. */
  property: string;
  /**
   * `ref`: Ref or ${Target} in Fn::Sub (the physical id); `getatt`: Fn::GetAtt or
   * ${Target.Attr}; `import`: Fn::ImportValue of a literal export name.
   */
  via: 'ref' | 'getatt' | 'import';
}

/**
 * A resource as the template wants it, conditions already applied. Properties are resolved
 * against recorded state (a reference to a resource the deploy replaces still holds the
 * old value; the engine re-resolves it once the target is recreated).
 */
export interface DesiredResource {
  logicalId: string;
  type: string;
  properties: Record<string, unknown>;
  dependencies: readonly string[];
  deletionPolicy?: string;
  updateReplacePolicy?: string;
  reads?: readonly ResourceRead[];
  /**
   * Create-only properties its route leaves unsent (`--prefer-sdk-route`, spec 002): recorded as
   * present, never a cause of replacement, since a new resource on that route would not get
   * them either.
   */
  unsent?: readonly string[];
}

/** The recorded fields planning reads; a full state `ResourceRecord` fits. */
export type RecordedResource = Pick<ResourceRecord, 'type' | 'physicalId' | 'properties'> &
  Partial<
    Pick<
      ResourceRecord,
      | 'propertyHash'
      | 'observedProperties'
      | 'dependencies'
      | 'deletionPolicy'
      | 'updateReplacePolicy'
      | 'provisionedBy'
      | 'attributes'
    >
  >;

export interface PlanInput {
  desired: readonly DesiredResource[];
  /** The state document's `resources`, by logical id. */
  recorded: Readonly<Record<string, RecordedResource>>;
  /**
   * Resources of the nested templates below this stack (`Child/Grandchild/Id`): deployed
   * later by their own plans, but refused here with the stack's own, in one message.
   */
  nested?: readonly { logicalId: string; type: string }[];
  /** `--recreate-via-cc-api` / `--recreate-via-sdk-provider`: logical id → the layer to re-create it on. */
  recreateVia?: Readonly<Record<string, NonNullable<ResourceRecord['provisionedBy']>>>;
  /**
   * Exports of other stacks this run moves before this stack deploys (a recreated target's
   * id or attribute), by export name → what to call it: their readers here follow them.
   */
  movingImports?: ReadonlyMap<string, string>;
}

/** What planning asks of the provider registry, injected so the plan knows no provider. */
export interface PlanOptions {
  /** Whether an SDK provider or Cloud Control can handle the type. */
  canHandle(type: string): boolean;
  /** Whether the provider can apply these changed properties in place. */
  providerCanUpdate(type: string, changedProperties: readonly string[]): boolean;
  /**
   * The CloudFormation registry's answers for the types registryTypesToRead names, fetched
   * before planning; a type without one is decided by the bundled schema index.
   */
  registry?: ReadonlyMap<string, RegistryAnswer>;
}

export type OperationKind = 'create' | 'update' | 'replace' | 'delete' | 'no-op';

export type ReplacementCause =
  | { kind: 'property'; property: string; source?: VerdictSource }
  | { kind: 'nested-property'; property: string; path: string; source?: VerdictSource }
  | { kind: 'type-change'; from: string; to: string }
  | { kind: 'no-provider-update'; properties: string[] };

export interface PlannedOperation {
  logicalId: string;
  kind: OperationKind;
  /** The desired type; for a delete, the recorded one. */
  type: string;
  /** The recorded type, when a replacement changes it. */
  previousType?: string;
  physicalId?: string;
  /** One human line: what changed and why this kind. */
  reason: string;
  changedProperties: string[];
  replacementCauses: ReplacementCause[];
  /** Things worth saying that do not change the kind ('maybe' replacements, masked values). */
  notes: string[];
  /** The hash to record once applied; on a legacy no-op the engine records it without an API call. */
  propertyHash?: string;
  /** Logical ids whose operation must finish first. */
  dependsOn: string[];
  /** Deletes run in `cleanup`, after every `deploy` operation, in reverse dependency order. */
  phase: 'deploy' | 'cleanup';
  /** Replaced resources this one reads: its properties are re-resolved after they are recreated. */
  reresolveAfter: string[];
  /** A reader whose referencing property is create-only: replaced if the target's id changes. */
  replacedIfIdChanges: boolean;
  deletionPolicy?: string;
  updateReplacePolicy?: string;
  /** How the deploy routes it, where worth showing (`[via CC API: sticky]`, spec 003). */
  routing?: string;
  /**
   * A create whose explicit name planning looked up and found free (spec 002): the executor
   * does not read again while the properties it evaluates are the ones planned.
   */
  nameFreeWhenPlanned?: boolean;
  /** Made (or destroyed and re-made) on this layer, as a `--recreate-via-*` flag names it. */
  recreateVia?: NonNullable<ResourceRecord['provisionedBy']>;
  /**
   * Stacks later in the run that read it through an export: a re-create of it runs create-first
   * unless the template names it, and its old copy is held until they have deployed.
   */
  importedBy?: string[];
  /** The layer the recorded resource a `--recreate-via-*` flag re-creates was on. */
  recreateFrom?: NonNullable<ResourceRecord['provisionedBy']>;
}

/** An export the stack reads through Fn::ImportValue, and which side's stack exports it. */
export interface PlanImport {
  exportName: string;
  /** `cdkd`: a stack cdkd deployed (or plans earlier in the run); `cloudformation`: one still on CloudFormation. */
  side: 'cdkd' | 'cloudformation';
  stackName: string;
}

export interface Plan {
  /** Every logical id once, deploy phase in dependency order, then the cleanup phase. */
  operations: PlannedOperation[];
  /** The exports the stack imports, by name, with where each comes from; absent when it imports none. */
  imports?: PlanImport[];
}

/** CloudFormation's records as the sandbox keeps them: stacks, their resources, events, change sets. */

export type StackStatus =
  | 'CREATE_IN_PROGRESS'
  | 'CREATE_FAILED'
  | 'CREATE_COMPLETE'
  | 'ROLLBACK_IN_PROGRESS'
  | 'ROLLBACK_FAILED'
  | 'ROLLBACK_COMPLETE'
  | 'DELETE_IN_PROGRESS'
  | 'DELETE_FAILED'
  | 'DELETE_COMPLETE'
  | 'UPDATE_IN_PROGRESS'
  | 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS'
  | 'UPDATE_COMPLETE'
  | 'UPDATE_FAILED'
  | 'UPDATE_ROLLBACK_IN_PROGRESS'
  | 'UPDATE_ROLLBACK_FAILED'
  | 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS'
  | 'UPDATE_ROLLBACK_COMPLETE'
  | 'REVIEW_IN_PROGRESS'
  | 'IMPORT_IN_PROGRESS'
  | 'IMPORT_COMPLETE'
  | 'IMPORT_ROLLBACK_IN_PROGRESS'
  | 'IMPORT_ROLLBACK_FAILED'
  | 'IMPORT_ROLLBACK_COMPLETE';

export type ResourceStatus =
  | 'CREATE_IN_PROGRESS'
  | 'CREATE_FAILED'
  | 'CREATE_COMPLETE'
  | 'DELETE_IN_PROGRESS'
  | 'DELETE_FAILED'
  | 'DELETE_COMPLETE'
  | 'DELETE_SKIPPED'
  | 'UPDATE_IN_PROGRESS'
  | 'UPDATE_FAILED'
  | 'UPDATE_COMPLETE'
  | 'IMPORT_IN_PROGRESS'
  | 'IMPORT_COMPLETE'
  | 'IMPORT_FAILED'
  | 'IMPORT_ROLLBACK_IN_PROGRESS'
  | 'IMPORT_ROLLBACK_COMPLETE'
  | 'IMPORT_ROLLBACK_FAILED'
  | 'ROLLBACK_IN_PROGRESS'
  | 'ROLLBACK_COMPLETE'
  | 'ROLLBACK_FAILED';

export interface Tag {
  Key: string;
  Value: string;
}

/** A parameter as the stack records it: the value used, and for SSM types the value read. */
export interface StackParameter {
  key: string;
  value: string;
  resolvedValue?: string;
  /** Shown as asterisks, never in clear. */
  noEcho?: boolean;
}

export interface StackOutput {
  key: string;
  value: string;
  description?: string;
  exportName?: string;
}

/** One resource of a stack, as DescribeStackResources lists it plus what the sandbox needs. */
export interface StackResourceRecord {
  logicalId: string;
  type: string;
  /** What DescribeStackResources shows and Ref returns; absent until the resource exists. */
  physicalId?: string;
  /** The identifier its handler knows it by (Cloud Control's), when that differs from physicalId. */
  identifier?: string;
  status: ResourceStatus;
  statusReason?: string;
  lastUpdated: string;
  /**
   * sha256 of the resolved property map (seed 004); '' for a record made before hashes were
   * kept, which the first update treats as unchanged.
   */
  propertiesHash: string;
  /** The resolved properties last applied (custom resources send them as OldResourceProperties). */
  properties: Record<string, unknown>;
  /** Fn::GetAtt values: the handler's model, a custom resource's Data, a nested stack's outputs. */
  attributes: Record<string, unknown>;
  /** Logical ids this resource depended on when it was last applied (deletion runs the other way). */
  dependsOn: string[];
  metadata?: string;
  description?: string;
  deletionPolicy?: string;
  updateReplacePolicy?: string;
}

/** What an update replaces on the stack record and a rollback puts back (seed 004). */
export interface StackGeneration {
  templateBody: string;
  parameters: StackParameter[];
  tags: Tag[];
  description?: string;
  capabilities: string[];
  notificationArns: string[];
  roleArn?: string;
  outputs: StackOutput[];
  /** Export names the template's Fn::ImportValue read (ListImports). */
  imports?: string[];
  resources: Record<string, StackResourceRecord>;
}

export interface StackRecord extends StackGeneration {
  stackId: string;
  stackName: string;
  region: string;
  accountId: string;
  status: StackStatus;
  statusReason?: string;
  creationTime: string;
  lastUpdatedTime?: string;
  deletionTime?: string;
  disableRollback: boolean;
  terminationProtection: boolean;
  timeoutInMinutes?: number;
  /** The change set last executed on the stack. */
  changeSetId?: string;
  parentId?: string;
  rootId?: string;
  /** The generation an update replaced, kept until the update ends, for its rollback. */
  previous?: StackGeneration;
  /** What the update in progress (or failed) did, in order: what its rollback undoes. */
  journal?: AppliedChange[];
  /** Resources the new template dropped, deleted when the update completes. */
  pendingRemoval?: string[];
  /** The stack's change sets (dropped when one executes or the stack is deleted). */
  changeSets: ChangeSetRecord[];
  /** Retained resources a DeleteStack named, kept when the deletion is retried. */
  retainResources?: string[];
}

/**
 * One thing an update did to a resource. `before` is the record the update started from;
 * `oldDeleted` marks a replacement that deleted the old resource (seed 004: delete, then
 * create), `retainedOld` one that kept it under UpdateReplacePolicy.
 */
export interface AppliedChange {
  kind: 'created' | 'updated' | 'replaced';
  logicalId: string;
  before?: StackResourceRecord;
  oldDeleted?: boolean;
  retainedOld?: boolean;
}

export interface StackEvent {
  eventId: string;
  stackId: string;
  stackName: string;
  logicalId: string;
  physicalId: string;
  type: string;
  timestamp: string;
  status: string;
  reason?: string;
  properties?: string;
  clientRequestToken?: string;
}

export type ChangeSetType = 'CREATE' | 'UPDATE' | 'IMPORT';
export type ChangeSetStatus =
  | 'CREATE_PENDING'
  | 'CREATE_IN_PROGRESS'
  | 'CREATE_COMPLETE'
  | 'DELETE_PENDING'
  | 'DELETE_IN_PROGRESS'
  | 'DELETE_COMPLETE'
  | 'DELETE_FAILED'
  | 'FAILED';
export type ExecutionStatus =
  'UNAVAILABLE' | 'AVAILABLE' | 'EXECUTE_IN_PROGRESS' | 'EXECUTE_COMPLETE' | 'EXECUTE_FAILED' | 'OBSOLETE';

/** One row of DescribeChangeSet's Changes. */
export interface ResourceChange {
  action: 'Add' | 'Modify' | 'Remove' | 'Import' | 'Dynamic';
  logicalId: string;
  physicalId?: string;
  type: string;
  replacement?: 'True' | 'False' | 'Conditional';
  scope: string[];
  /** Properties whose change forces the replacement (Details' RequiresRecreation Always). */
  replacingProperties: string[];
  changedProperties: string[];
}

export interface ResourceToImport {
  type: string;
  logicalId: string;
  identifier: Record<string, string>;
}

/** What executing the change set applies: a generation and how it was asked for. */
export interface ProposedUpdate {
  templateBody: string;
  parameters: StackParameter[];
  tags: Tag[];
  capabilities: string[];
  notificationArns: string[];
  roleArn?: string;
  disableRollback?: boolean;
  resourcesToImport?: ResourceToImport[];
}

export interface ChangeSetRecord {
  changeSetId: string;
  changeSetName: string;
  type: ChangeSetType;
  status: ChangeSetStatus;
  statusReason?: string;
  executionStatus: ExecutionStatus;
  creationTime: string;
  description?: string;
  proposed: ProposedUpdate;
  changes: ResourceChange[];
  includeNestedStacks: boolean;
}

/**
 * The shapes `cdkd ui`'s JSON routes answer with. Free of imports: the page (a browser
 * bundle) reads them too.
 */

/** One stack as the `cdkd ui` stacks list shows it: read from state, lock, journal and events. */
export interface StackOverview {
  /** A nested stack's is `Parent/Child`. */
  stackName: string;
  region: string;
  /** Set on a nested stack: its parent's name. */
  parent?: string;
  resourceCount: number;
  /** When state was last written. */
  updatedAt: string;
  /** The stack-level status of the last run that recorded one (CREATE_COMPLETE, UPDATE_FAILED, ...). */
  lastRunStatus?: string;
  lastRunAt?: string;
  lock?: { owner: string; operation?: string; timestamp?: string } | { unreadable: true };
  /** The journal's segments that are not settled: a rollback is owed. */
  pendingJournal: number;
  /** What the last `cdkd drift` found; absent when it never ran. */
  drift?: { checkedAt: string; mode: string; drifted: string[]; missing: string[] };
}

export interface StackResource {
  logicalId: string;
  type: string;
  physicalId: string;
  route: 'sdk' | 'cc-api';
  deletionPolicy?: string;
  dependencies: string[];
  /** The last operation that created or updated it, from the deployment events. */
  lastChange?: { at: string; status: string };
}

export interface StackDetail {
  stackName: string;
  region: string;
  updatedAt: string;
  resources: StackResource[];
  /** `importedBy`: the stacks in the region whose template imports the export. */
  outputs: Record<string, { value: unknown; exportName?: string; importedBy?: string[] }>;
  imports: string[];
}

/** One resource a pending `cdkd diff` would change. */
export interface PendingChange {
  logicalId: string;
  kind: 'create' | 'update' | 'replace' | 'delete';
  type: string;
  reason: string;
  dependsOn: string[];
  /** The stateful guard's verdict: the change destroys data. */
  dataLoss?: true;
}

import type {
  ApprovalLevel,
  Plan,
  RecreateRow,
  SecurityChanges,
  StackValues,
  StatefulVerdict,
} from '../../plan/index.js';
import type { OutputRecord } from '../../state/index.js';

/** What the engine reports while it works; the CLI renders these, tests collect them. */
export type ResourceAction = 'create' | 'update' | 'replace' | 'delete' | 'no-op' | 'retain';

export type DeployEvent =
  | {
      kind: 'resource';
      stack: string;
      logicalId: string;
      type: string;
      action: ResourceAction;
      status: 'started' | 'succeeded' | 'failed' | 'skipped';
      physicalId?: string;
      message?: string;
      /** On `failed`: cdkd's error code, else the AWS error code. */
      errorCode?: string;
      durationMs?: number;
    }
  | {
      kind: 'stack';
      stack: string;
      status: 'started' | 'succeeded' | 'failed' | 'no-changes';
      message?: string;
      /** On `started`: how many resources the run will act on (no-ops excluded). */
      total?: number;
      /** On `started`: the stack has no record yet, so this deploy creates it. */
      firstDeploy?: boolean;
      /** On `started`, when asked for (the live view's ETA): the operations and their past times. */
      schedule?: DeploySchedule;
    }
  | { kind: 'phase'; stack: string; phase: DeployPhase; durationMs: number }
  | { kind: 'warning'; stack: string; message: string }
  | {
      kind: 'rollback';
      stack: string;
      logicalId: string;
      status: 'succeeded' | 'skipped' | 'failed';
      /** True when the step needs a person (exit 2). */
      warn: boolean;
      message: string;
    };

/** What a deploy will do, in its DAG, and how long the stack's past operations took. */
export interface DeploySchedule {
  /** Every operation that acts (no-ops left out), in its phase: cleanup runs after deploy. */
  operations: Array<{
    logicalId: string;
    type: string;
    action: ResourceAction;
    phase: 'deploy' | 'cleanup';
    dependsOn: string[];
  }>;
  /** `{type} {action}` → the median ms of the stack's past completed operations of that kind. */
  pastMs: Record<string, number>;
  /** The deploy's --concurrency. */
  concurrency: number;
  /**
   * False when cdkd talks to another endpoint (AWS_ENDPOINT_URL: the sandbox or another
   * AWS-compatible one), whose times the aws latency profile does not describe.
   */
  awsEndpoint: boolean;
}

/** Where a deploy's time goes, in order (`--verbose` prints them). */
export type DeployPhase =
  /** Running the app (or reading `--app DIR`), before anything else. */
  | 'synthesis'
  | 'credentials'
  /** Reads and a plan without the lock: a redeploy with nothing to change ends here. */
  | 'no-op check'
  /** `--require-approval`: the dry run reviewed, and the question if one was asked. */
  | 'approval'
  | 'lock'
  | 'state read'
  | 'plan'
  | 'execution'
  | 'outputs'
  | 'journal'
  | 'unlock';

/** An output whose attribute read live was refused (spec 002): why, in one line. */
export interface FailedOutput {
  name: string;
  message: string;
  hint?: string;
}

/** A dry run's change to one recorded output. */
export interface OutputChange {
  name: string;
  before?: unknown;
  after?: unknown;
  /** The new value reads something the deploy has yet to make: known after deploy. */
  knownAfterDeploy?: true;
}

/** What deploying one stack came to. */
export interface StackDeployResult {
  stackName: string;
  plan: Plan;
  outputs: Record<string, OutputRecord>;
  /** False when the deploy found nothing to do and wrote nothing. */
  changed: boolean;
  /** Resources only the journal records that this deploy could not act on (exit 2). */
  unaddressed: string[];
  /** The stateful guard's verdicts, for the DATA LOSS / UNKNOWN rows of a printed plan. */
  stateful?: StatefulVerdict[];
  /** Outputs an attribute read live could not resolve (left out of `outputs`). */
  failedOutputs?: FailedOutput[];
  /** A dry run's changes to the recorded outputs (`cdkd diff`). */
  outputChanges?: OutputChange[];
  /** A dry run's: the ETag of the state it planned from, null when the stack had none (`cdkd diff --out`). */
  stateEtag?: string | null;
  /** A dry run's changed resources, old and new properties masked as state records them. */
  values?: StackValues;
  /** A dry run's IAM and security-group changes. */
  security?: SecurityChanges;
}

/** What `--require-approval` stops a stack's deploy for: the dry run of it, and why it asks. */
export interface ApprovalRequest {
  stackName: string;
  level: ApprovalLevel;
  /** Whether its permissions widen (the CDK CLI's `permissionsBroadened`). */
  broadened: boolean;
  review: StackDeployResult;
}

/** What the data-loss confirmation shows: the stack's recreated resources and their data. */
export interface DataLossConfirmation {
  stackName: string;
  rows: RecreateRow[];
}

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
      durationMs?: number;
    }
  | {
      kind: 'stack';
      stack: string;
      status: 'started' | 'succeeded' | 'failed' | 'no-changes';
      message?: string;
      /** On `started`: how many resources the run will act on (no-ops excluded). */
      total?: number;
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

/** Where a deploy's time goes, in order (`--verbose` prints them). */
export type DeployPhase =
  /** Running the app (or reading `--app DIR`), before anything else. */
  | 'synthesis'
  | 'credentials'
  /** Reads and a plan without the lock: a redeploy with nothing to change ends here. */
  | 'no-op check'
  | 'lock'
  | 'state read'
  | 'plan'
  | 'execution'
  | 'outputs'
  | 'journal'
  | 'unlock';

export type EventSink = (event: DeployEvent) => void;

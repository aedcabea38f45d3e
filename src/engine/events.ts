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
    }
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

export type EventSink = (event: DeployEvent) => void;

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
  | { kind: 'warning'; stack: string; message: string };

export type EventSink = (event: DeployEvent) => void;

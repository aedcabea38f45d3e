import { randomUUID } from 'node:crypto';
import type { SandboxContext } from '../../service-module.js';
import type { Storage } from '../../storage/storage.js';
import { StatesError } from './asl/errors.js';
import { runMachine, type Runtime } from './asl/interpreter.js';
import type { MachineFacts } from './machines.js';
import { invokeTask } from './tasks.js';

const NAMESPACE = 'states/executions';

export interface HistoryEvent {
  id: number;
  previousEventId: number;
  timestamp: number;
  type: string;
  details?: Record<string, unknown>;
}

export interface ExecutionRecord {
  arn: string;
  machineArn: string;
  name: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT';
  input: string;
  output?: string;
  error?: string;
  cause?: string;
  startDate: number;
  stopDate?: number;
  history: HistoryEvent[];
}

/** The detail member GetExecutionHistory names for each event type it carries details for. */
const DETAIL_MEMBER: Record<string, string> = {
  ExecutionStarted: 'executionStartedEventDetails',
  ExecutionSucceeded: 'executionSucceededEventDetails',
  ExecutionFailed: 'executionFailedEventDetails',
  ExecutionAborted: 'executionAbortedEventDetails',
  MapStateStarted: 'mapStateStartedEventDetails',
  MapIterationStarted: 'mapIterationStartedEventDetails',
  MapIterationSucceeded: 'mapIterationSucceededEventDetails',
  TaskScheduled: 'taskScheduledEventDetails',
  TaskSucceeded: 'taskSucceededEventDetails',
  TaskFailed: 'taskFailedEventDetails',
};

export function historyView(event: HistoryEvent): Record<string, unknown> {
  const member = event.type.endsWith('StateEntered')
    ? 'stateEnteredEventDetails'
    : event.type.endsWith('StateExited')
      ? 'stateExitedEventDetails'
      : DETAIL_MEMBER[event.type];
  return {
    id: event.id,
    previousEventId: event.previousEventId,
    timestamp: event.timestamp / 1000,
    type: event.type,
    ...(member && event.details ? { [member]: event.details } : {}),
  };
}

/** Executions: started, run by the interpreter on the sandbox clock, kept with their history. */
export class Executions {
  private readonly executions = new Map<string, ExecutionRecord>();
  private readonly running = new Map<string, { stop: () => void; done: Promise<ExecutionRecord> }>();

  private constructor(
    private readonly context: SandboxContext,
    private readonly storage: Storage,
  ) {}

  static async load(context: SandboxContext): Promise<Executions> {
    const executions = new Executions(context, context.storage);
    for (const { doc } of await context.storage.listDocuments<ExecutionRecord>(NAMESPACE)) {
      executions.executions.set(doc.arn, doc);
    }
    return executions;
  }

  get(arn: string): ExecutionRecord | undefined {
    return this.executions.get(arn);
  }

  of(machineArn: string): ExecutionRecord[] {
    return [...this.executions.values()]
      .filter((e) => e.machineArn === machineArn)
      .sort((a, b) => b.startDate - a.startDate);
  }

  all(): ExecutionRecord[] {
    return [...this.executions.values()];
  }

  /** Starts an execution; `done` resolves when it ends. */
  start(
    machine: MachineFacts,
    input: string,
    name: string | undefined,
    findMachine: (arn: string) => MachineFacts | undefined,
  ): { record: ExecutionRecord; done: Promise<ExecutionRecord> } {
    const executionName = name ?? randomUUID();
    const kind = machine.type === 'EXPRESS' ? 'express' : 'execution';
    const arn = machine.arn.replace(':stateMachine:', `:${kind}:`) + `:${executionName}`;
    const record: ExecutionRecord = {
      arn,
      machineArn: machine.arn,
      name: executionName,
      status: 'RUNNING',
      input,
      startDate: this.context.clock.now(),
      history: [],
    };
    this.executions.set(arn, record);
    let stopped = false;
    const runtime: Runtime = {
      invokeTask: async (resource, payload, state) => {
        this.record(record, 'TaskScheduled', {
          resource,
          resourceType: resource.split(':')[2],
          parameters: JSON.stringify(payload),
        });
        try {
          const output = await invokeTask(this.context, resource, payload, (childArn, childInput, wait) =>
            this.startChild(childArn, childInput, wait, findMachine),
          );
          this.record(record, 'TaskSucceeded', { resource, output: JSON.stringify(output) });
          return output;
        } catch (error) {
          const failure = error as { error?: string; cause?: string };
          this.record(record, 'TaskFailed', {
            resource,
            error: failure.error,
            cause: failure.cause,
            state: state.name,
          });
          throw error;
        }
      },
      now: () => this.context.clock.now(),
      sleep: (ms) => this.context.clock.sleep(ms),
      record: (type, details) => this.record(record, type, details),
      stopped: () => stopped,
    };
    this.record(record, 'ExecutionStarted', { input, roleArn: machine.roleArn });
    const context = {
      Execution: {
        Id: arn,
        Name: executionName,
        Input: JSON.parse(input) as unknown,
        RoleArn: machine.roleArn,
        StartTime: new Date(record.startDate).toISOString(),
      },
      StateMachine: { Id: machine.arn, Name: machine.name },
    };
    const done = runMachine(machine.definition, JSON.parse(input), runtime, context).then(async (result) => {
      if (record.status !== 'RUNNING') return record;
      record.stopDate = this.context.clock.now();
      if (result.status === 'SUCCEEDED') {
        record.status = 'SUCCEEDED';
        record.output = JSON.stringify(result.output ?? null);
        this.record(record, 'ExecutionSucceeded', { output: record.output });
      } else if (result.status === 'FAILED') {
        record.status = 'FAILED';
        record.error = result.error;
        record.cause = result.cause;
        this.record(record, 'ExecutionFailed', { error: result.error, cause: result.cause });
      }
      this.running.delete(arn);
      await this.storage.putDocument(NAMESPACE, encodeURIComponent(arn), record);
      return record;
    });
    this.running.set(arn, { stop: () => void (stopped = true), done });
    return { record, done };
  }

  /** StopExecution: the execution ends ABORTED at once; its interpreter stops at its next state. */
  async stop(record: ExecutionRecord, error?: string, cause?: string): Promise<void> {
    this.running.get(record.arn)?.stop();
    this.running.delete(record.arn);
    record.status = 'ABORTED';
    record.stopDate = this.context.clock.now();
    if (error !== undefined) record.error = error;
    if (cause !== undefined) record.cause = cause;
    this.record(record, 'ExecutionAborted', { ...(error ? { error } : {}), ...(cause ? { cause } : {}) });
    await this.storage.putDocument(NAMESPACE, encodeURIComponent(record.arn), record);
  }

  private async startChild(
    arn: string,
    input: unknown,
    wait: boolean,
    findMachine: (arn: string) => MachineFacts | undefined,
  ): Promise<{ executionArn: string; startDate: number; result?: ExecutionRecord }> {
    const machine = findMachine(arn);
    if (!machine) {
      throw new StatesError(
        'StepFunctions.StateMachineDoesNotExistException',
        `State Machine Does Not Exist: '${arn}'`,
      );
    }
    const started = this.start(
      machine,
      typeof input === 'string' ? input : JSON.stringify(input),
      undefined,
      findMachine,
    );
    return {
      executionArn: started.record.arn,
      startDate: started.record.startDate / 1000,
      ...(wait ? { result: await started.done } : {}),
    };
  }

  private record(record: ExecutionRecord, type: string, details?: Record<string, unknown>): void {
    const id = record.history.length + 1;
    record.history.push({
      id,
      previousEventId: id - 1,
      timestamp: this.context.clock.now(),
      type,
      ...(details ? { details } : {}),
    });
  }
}

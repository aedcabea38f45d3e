import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxContext } from '../../../service-module.js';
import type { CodeRecord, FunctionConfig, FunctionRecord } from '../model.js';
import type { LambdaStore } from '../store.js';
import { CodeCache } from './code-cache.js';
import { Container } from './container.js';
import { functionEnvironment } from './environment.js';
import { logGroupName, logTail, newLogStreamName, writeFunctionLog, type LogLine } from './function-logs.js';
import { ContainerPool } from './pool.js';
import { launcherFor } from './runtimes.js';

/** One function version to run: `$LATEST` or a published version's configuration. */
export interface InvokeTarget {
  record: FunctionRecord;
  config: FunctionConfig;
  version: string;
}

export interface InvokeOptions {
  requestId?: string;
  clientContext?: string;
}

export interface InvokeResult {
  /** The handler's result (JSON text), or the error payload Lambda returns for it. */
  payload: string;
  functionError?: 'Unhandled';
  /** Base64 tail of the invocation's log (`X-Amz-Log-Result`). */
  logResult: string;
}

/**
 * Runs functions: unzips their code, starts and reuses their child processes, writes what
 * they print to CloudWatch Logs with Lambda's START / END / REPORT lines.
 */
export class FunctionRunner {
  private readonly pool = new ContainerPool();

  private constructor(
    private readonly context: SandboxContext,
    private readonly store: LambdaStore,
    private readonly code: CodeCache,
    /** A temp root to remove on close (when the sandbox keeps no data dir). */
    private readonly ownedRoot: string | undefined,
  ) {}

  static async create(context: SandboxContext, store: LambdaStore): Promise<FunctionRunner> {
    const ownedRoot = context.dataDir ? undefined : await mkdtemp(join(tmpdir(), 'cdkd-sandbox-lambda-'));
    const root = ownedRoot ?? join(context.dataDir!, 'lambda-runtime');
    const code = new CodeCache(root, context);
    await code.prepare();
    return new FunctionRunner(context, store, code, ownedRoot);
  }

  /** Throws Lambda's error when the sandbox cannot run this function's runtime. */
  check(target: InvokeTarget): void {
    launcherFor(target.config.runtime, target.record.name);
  }

  async invoke(target: InvokeTarget, payload: string, options: InvokeOptions = {}): Promise<InvokeResult> {
    const { record, config, version } = target;
    const launcher = launcherFor(config.runtime, record.name);
    const requestId = options.requestId ?? randomUUID();
    const taskRoot = await this.code.directory(config.code);
    const layers = await Promise.all(
      this.layerCode(record.region, config).map((code) => this.code.directory(code)),
    );
    const key = `${record.arn}:${version}`;
    let started: number | undefined;
    const container = await this.pool.acquire(key, config.revisionId, () => {
      started = Date.now();
      const logStream = newLogStreamName(version);
      const env = functionEnvironment({
        config,
        functionName: record.name,
        version,
        region: record.region,
        logGroup: logGroupName(record.name),
        logStream,
        taskRoot,
        endpoint: this.context.endpoint ?? '',
      });
      return new Container(launcher({ taskRoot, layers }), env, taskRoot, logStream);
    });
    const lines: LogLine[] = [];
    const line = (message: string): void => void lines.push({ timestamp: Date.now(), message });
    const begin = Date.now();
    line(`START RequestId: ${requestId} Version: ${version}`);
    container.onLog = line;
    const outcome = await container.run(
      {
        requestId,
        payload,
        deadlineMs: begin + config.timeout * 1000,
        invokedFunctionArn: version === '$LATEST' ? record.arn : `${record.arn}:${version}`,
        ...(options.clientContext ? { clientContext: options.clientContext } : {}),
      },
      config.timeout,
    );
    // Between invocations (a timer still printing), each line is written as it comes.
    container.onLog = (message) =>
      void this.log(record, container.logStream, [{ timestamp: Date.now(), message }]);
    this.pool.release(key, container);
    if (outcome.kind === 'error' && outcome.error.errorType === 'Sandbox.Timedout') {
      line(`${new Date().toISOString()} ${outcome.error.errorMessage}`);
    }
    const duration = Date.now() - begin;
    line(`END RequestId: ${requestId}`);
    line(
      `REPORT RequestId: ${requestId}\tDuration: ${duration.toFixed(2)} ms\tBilled Duration: ${Math.max(1, duration)} ms\tMemory Size: ${config.memorySize} MB\tMax Memory Used: ${config.memorySize} MB` +
        (started !== undefined ? `\tInit Duration: ${(begin - started).toFixed(2)} ms` : ''),
    );
    await this.log(record, container.logStream, lines);
    return outcome.kind === 'result'
      ? { payload: outcome.payload, logResult: logTail(lines) }
      : { payload: JSON.stringify(outcome.error), functionError: 'Unhandled', logResult: logTail(lines) };
  }

  /** Stops the environments of a function's versions whose configuration is no longer current. */
  reconcile(record: FunctionRecord | undefined, arn: string): void {
    const revisions = new Map<string, string>();
    if (record) {
      revisions.set(`${arn}:$LATEST`, record.latest.revisionId);
      for (const version of record.versions)
        revisions.set(`${arn}:${version.version}`, version.config.revisionId);
    }
    this.pool.retire(`${arn}:`, (key, revision) => revisions.get(key) === revision);
  }

  async close(): Promise<void> {
    this.pool.closeAll();
    if (this.ownedRoot) await rm(this.ownedRoot, { recursive: true, force: true });
  }

  /** The packages of the function's layers this sandbox holds, in the function's order. */
  private layerCode(region: string, config: FunctionConfig): CodeRecord[] {
    return config.layers.flatMap((arn) => {
      const [, , , , , , name, version] = arn.split(':');
      const layer = this.store
        .layerVersions(region, name ?? '')
        .find((candidate) => candidate.version === Number(version) && !candidate.deleted);
      return layer ? [layer.code] : [];
    });
  }

  private async log(record: FunctionRecord, stream: string, lines: LogLine[]): Promise<void> {
    await writeFunctionLog(this.context, record.region, record.name, stream, lines);
  }
}

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxContext } from '../../../service-module.js';
import type { CodeRecord, FunctionConfig, FunctionRecord } from '../model.js';
import type { InvokeOptions, InvokeResult, InvokeTarget } from './invocation.js';
import type { LambdaStore } from '../store.js';
import { CodeCache } from './code-cache.js';
import { Container } from './container.js';
import { executionEnvironment } from './environment.js';
import { StreamLog } from './function-logs.js';
import { ContainerPool } from './pool.js';
import { ImageFunctions } from './image/index.js';
import { framedInvocation } from './invocation-frame.js';
import { optSupport, withOpt } from './opt-mount.js';
import { pythonInterpreter } from '../../../../lambda-runtime/python/python-runtime.js';
import { launcherFor } from './runtimes.js';
import type { SdkSettings } from '../../../../lambda-runtime/node/sdk-cache.js';
import { defaultSdkCacheDir, sdkSettings } from '../../../../lambda-runtime/node/sdk-settings.js';

export type { InvokeOptions, InvokeResult, InvokeTarget } from './invocation.js';

/**
 * Runs functions: unzips their code, starts and reuses their child processes, writes what
 * they print to CloudWatch Logs with Lambda's START / END / REPORT lines.
 */
export class FunctionRunner {
  private readonly pool = new ContainerPool<Container>();
  private readonly images: ImageFunctions;
  /** Invocations running now: stop waits for them to end (killed) and for their log to be written. */
  private readonly running = new Set<Promise<InvokeResult>>();

  /** Where packages are unzipped, made on the first invocation. */
  private code: Promise<CodeCache> | undefined;
  /** A temp root to remove on close (when the sandbox keeps no data dir). */
  private ownedRoot: string | undefined;
  /** How Node.js functions install SDK packages the sandbox does not ship, found on first use. */
  private sdk: SdkSettings | undefined | null = null;

  constructor(
    private readonly context: SandboxContext,
    private readonly store: LambdaStore,
  ) {
    this.images = new ImageFunctions(context);
  }

  /** Throws Lambda's error when the sandbox cannot run this function's runtime. */
  check(target: InvokeTarget): void {
    if (target.config.code.image) this.images.check(target);
    else launcherFor(target.config, target.record.name);
  }

  invoke(target: InvokeTarget, payload: string, options: InvokeOptions = {}): Promise<InvokeResult> {
    const running = this.run(target, payload, options);
    this.running.add(running);
    const forget = (): void => void this.running.delete(running);
    running.then(forget, forget);
    return running;
  }

  private async run(target: InvokeTarget, payload: string, options: InvokeOptions): Promise<InvokeResult> {
    if (target.config.code.image) return this.images.invoke(target, payload, options);
    const { record, config, version } = target;
    const launcher = launcherFor(config, record.name);
    const requestId = options.requestId ?? randomUUID();
    const cache = await this.codeCache();
    const taskRoot = await cache.directory(config.code);
    const layers = await Promise.all(
      this.layerCode(record.region, config).map((code) => cache.directory(code)),
    );
    const opt = await cache.optDirectory(layers);
    const key = `${record.arn}:${version}`;
    const container = await this.pool.acquire(key, config.revisionId, () => {
      const { environment: env, logGroup, logStream } = executionEnvironment(this.context, target, taskRoot);
      const log = new StreamLog(this.context, record.region, logGroup, logStream);
      const sdk = this.sdkSettings();
      let launch = launcher({ taskRoot, layers, ...(sdk ? { sdk } : {}) });
      if (opt !== undefined) {
        const support = optSupport();
        if (support.available) {
          launch = withOpt(launch, support.unshare, {
            opt,
            python: pythonInterpreter(),
            node: process.execPath,
            scratch: cache.scratch,
          });
        } else {
          log.write(
            `cdkd sandbox: the function's layers are not mounted at /opt: ${support.reason}. Node.js and Python still find the layers' modules, but nothing is at /opt.`,
          );
        }
      }
      const started = new Container(launch, env, taskRoot, log);
      started.onNotice = (text) => {
        started.onLog(text);
        this.context.log(`Lambda function ${record.name}: ${text}`);
      };
      return started;
    });
    try {
      return await framedInvocation(
        container.log,
        { requestId, version, memorySize: config.memorySize },
        (line) => {
          container.onLog = line;
          return container.run({
            requestId,
            payload,
            timeoutMs: config.timeout * 1000,
            invokedFunctionArn: target.invokedFunctionArn,
            ...(options.clientContext ? { clientContext: options.clientContext } : {}),
          });
        },
      );
    } finally {
      // Between invocations (a timer still printing), lines go to the stream only.
      container.onLog = (message) => void container.log.write(message);
      this.pool.release(key, container);
    }
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
    this.images.stop();
    await Promise.allSettled([...this.running, ...(this.code ? [this.code] : [])]);
    await this.images.close();
    if (this.ownedRoot) await rm(this.ownedRoot, { recursive: true, force: true });
  }

  private codeCache(): Promise<CodeCache> {
    this.code ??= (async () => {
      if (!this.context.dataDir) this.ownedRoot = await mkdtemp(join(tmpdir(), 'cdkd-sandbox-lambda-code-'));
      const cache = new CodeCache(
        this.ownedRoot ?? join(this.context.dataDir!, '.lambda-runtime'),
        this.context,
      );
      await cache.prepare();
      return cache;
    })();
    return this.code;
  }

  private sdkSettings(): SdkSettings | undefined {
    if (this.sdk === null) this.sdk = sdkSettings(this.context.sdkCacheDir ?? defaultSdkCacheDir());
    return this.sdk;
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
}

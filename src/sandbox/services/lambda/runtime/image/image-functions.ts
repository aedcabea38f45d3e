import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxError } from '../../../../errors.js';
import { ecrImages } from '../../../../ports/index.js';
import type { SandboxContext } from '../../../../service-module.js';
import { PLATFORM } from '../../image-code.js';
import { executionEnvironment } from '../environment.js';
import { StreamLog } from '../function-logs.js';
import type { InvokeOptions, InvokeResult, InvokeTarget } from '../invocation.js';
import { containerName, imageEngine, pullFiles } from './image-engine.js';
import { runImage } from './image-container.js';
import { removeLeftoverContainers } from './image-leftovers.js';
import { framedInvocation } from '../invocation-frame.js';

/**
 * Runs PackageType Image functions with the container engine, a container per invocation
 * (reusing one across invocations is a later optimisation): the image is pulled by its
 * pinned digest from the sandbox's own registry, and the container's runtime speaks
 * Lambda's runtime API to the sandbox.
 */
export class ImageFunctions {
  private readonly stopping = new AbortController();
  /** The engine's registry credentials and settings, written on first use and removed on close. */
  private pullDir: Promise<string> | undefined;
  /** Per engine, from its first use: removing the containers killed sandboxes left (image-leftovers.ts). */
  private readonly sweeps = new Map<string, Promise<void>>();

  constructor(private readonly context: SandboxContext) {}

  /** Throws Lambda's InvalidRuntimeException when no container engine is found. */
  check(target: InvokeTarget): string {
    return imageEngine(target.record.name, target.config.code.image!.resolvedUri, process.env);
  }

  async invoke(target: InvokeTarget, payload: string, options: InvokeOptions): Promise<InvokeResult> {
    const { record, config, version } = target;
    const engine = this.check(target);
    // Alongside the invocation, not before it: its container is named and labelled apart.
    if (!this.sweeps.has(engine)) this.sweeps.set(engine, removeLeftoverContainers(engine, this.context.log));
    const image = config.code.image!;
    const registry = ecrImages.of(this.context);
    if (!registry || !this.context.endpoint) {
      throw new SandboxError(
        'InvalidRuntimeException',
        `The sandbox cannot invoke the container image function ${record.name}: its ECR registry is not served.`,
        502,
      );
    }
    const resolved = await registry.resolve(
      image.resolvedUri,
      PLATFORM[config.architectures[0] ?? 'x86_64'] ?? 'amd64',
    );
    const host = new URL(this.context.endpoint).host;
    const repository = image.resolvedUri.slice(
      image.resolvedUri.indexOf('/') + 1,
      image.resolvedUri.indexOf('@'),
    );
    const account = record.arn.split(':')[4] ?? '';
    const requestId = options.requestId ?? randomUUID();
    const { environment, logGroup, logStream } = executionEnvironment(this.context, target, '/var/task');
    // The image's own PATH and execution environment (its ENV) apply, not the sandbox's;
    // _HANDLER is the command the container runs with (ImageConfig's, else the image's CMD).
    delete environment.PATH;
    delete environment.AWS_EXECUTION_ENV;
    const imageCommand = typeof resolved === 'object' ? resolved.config.Cmd : undefined;
    const handler = (config.imageConfig?.Command ?? imageCommand)?.[0];
    if (handler !== undefined) environment._HANDLER = handler;
    else delete environment._HANDLER;
    const log = new StreamLog(this.context, record.region, logGroup, logStream);
    const pullEnvironment = await this.pullEnvironment(
      host,
      registry.pullCredentials(account, record.region),
    );
    return framedInvocation(log, { requestId, version, memorySize: config.memorySize }, (line) =>
      runImage({
        engine,
        functionName: record.name,
        image: `${host}/${repository}@${image.digest}`,
        name: containerName(record.name, requestId),
        sandboxPid: process.pid,
        environment: { ...environment, LAMBDA_RUNTIME_DIR: '/var/runtime' },
        pullEnvironment,
        ...(config.imageConfig ? { overrides: config.imageConfig } : {}),
        ...(imageCommand ? { imageCommand } : {}),
        message: {
          requestId,
          payload,
          timeoutMs: config.timeout * 1000,
          invokedFunctionArn: target.invokedFunctionArn,
          ...(options.clientContext ? { clientContext: options.clientContext } : {}),
        },
        onLog: line,
        signal: this.stopping.signal,
      }),
    );
  }

  /** Ends the running invocations: their containers are removed. */
  stop(): void {
    this.stopping.abort();
  }

  /** Removes the engine's pull settings, once no invocation runs and no sweep. */
  async close(): Promise<void> {
    await Promise.all(this.sweeps.values());
    if (this.pullDir) await rm(await this.pullDir, { recursive: true, force: true });
  }

  private async pullEnvironment(
    registry: string,
    credentials: { username: string; password: string },
  ): Promise<Record<string, string>> {
    this.pullDir ??= mkdtemp(join(tmpdir(), 'cdkd-sandbox-engine-'));
    const dir = await this.pullDir;
    const files = pullFiles(registry, credentials);
    await writeFile(join(dir, 'config.json'), files.authJson, { mode: 0o600 });
    await writeFile(join(dir, 'registries.conf'), files.registriesConf);
    return {
      DOCKER_CONFIG: dir,
      REGISTRY_AUTH_FILE: join(dir, 'config.json'),
      CONTAINERS_REGISTRIES_CONF: join(dir, 'registries.conf'),
    };
  }
}

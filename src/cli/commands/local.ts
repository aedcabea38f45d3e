import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CdkdError } from '../../errors.js';
import type { CloudAssembly } from '../../assembly/index.js';
import { readProjectConfig, resolveAppSource } from '../../assembly/project-config.js';
import type { LocalRunnerOptions } from '../../local/function-runner.js';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { globalOptions } from '../options/global-options.js';
import { renderError } from '../render/render-error.js';
import { sessionFor } from '../options/session-from-options.js';

interface LocalRunOptions extends AppOptions {
  deployed: boolean;
  container?: boolean;
}

interface LocalInvokeOptions extends LocalRunOptions {
  event?: string;
}

interface ServiceOptions extends LocalRunOptions {
  replicas?: string;
  restart: boolean;
}

interface StartOptions extends LocalRunOptions {
  port: string;
}

export function registerLocal(program: Command): void {
  const local = program.command('local').description("run the app's functions on this machine");
  runOptions(
    addAppOptions(
      local
        .command('invoke')
        .description(
          'run one invocation of a Node.js or Python function of the app; prints its result, its logs to stderr',
        )
        .argument('<function>', '<stack>/<function>: the function by logical ID or construct path'),
    ),
  )
    .option('--event <file>', 'the event, a JSON file (default: stdin when it is not a terminal, else {})')
    .action(async (target: string, options: LocalInvokeOptions, command: Command) => {
      const { localInvoke } = await import('../../local/invoke.js');
      const event = await readEvent(options.event);
      const assembly = await synthesizeFor(command, options);
      const outcome = await localInvoke({
        ...(await runnerOptions(command, options, assembly)),
        target,
        event,
      });
      if ('result' in outcome) {
        process.stdout.write(`${outcome.result}\n`);
        return;
      }
      process.stdout.write(`${JSON.stringify(outcome.error)}\n`);
      process.stderr.write(
        `The function failed: ${outcome.error.errorType}: ${outcome.error.errorMessage}\n`,
      );
      process.exitCode = 1;
    });
  const servers = [
    {
      name: 'start-api',
      description:
        "serve the stack's REST and HTTP APIs on this machine, each request run by the local function (code re-read per request; an app it runs is synthesized again on change)",
      what: 'API',
      start: async () => (await import('../../local/api/start-api.js')).startApi,
    },
    {
      name: 'start-alb',
      description:
        "serve the stack's Application Load Balancer listeners on this machine: rules in priority order, Lambda targets run locally",
      what: 'listener',
      start: async () => (await import('../../local/alb/start-alb.js')).startAlb,
    },
    {
      name: 'start-cloudfront',
      description:
        "serve the stack's CloudFront distributions on this machine: behaviours by path pattern, S3 origins from the app's BucketDeployment sources (else the deployed bucket), function URL origins run locally",
      what: 'distribution',
      readsBuckets: true,
      start: async () => (await import('../../local/cloudfront/start-cloudfront.js')).startCloudFront,
    },
  ];
  registerStartService(local);
  for (const server of servers) {
    runOptions(
      addAppOptions(
        local
          .command(server.name)
          .description(server.description)
          .argument(
            '[stack]',
            `the stack (display path or name); default: the only stack with an ${server.what}`,
          ),
      ),
    )
      .option(
        '--port <port>',
        `the port of the first ${server.what}; each further one takes the next port`,
        '3000',
      )
      .action(async (stack: string | undefined, options: StartOptions, command: Command) => {
        const start = await server.start();
        const port = Number(options.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) {
          throw new CdkdError('LOCAL_PORT_INVALID', `--port ${options.port} is not a port number.`, {
            hint: 'Pass a number from 1 to 65535 (0 picks a free one).',
          });
        }
        const assembly = await synthesizeFor(command, options);
        const runner = await runnerOptions(command, options, assembly);
        const running = await start({
          ...runner,
          ...(stack !== undefined ? { stack } : {}),
          ...(server.readsBuckets && options.deployed
            ? { deployedBucket: await deployedBuckets(command, runner.region) }
            : {}),
          port,
        });
        for (const endpoint of running.endpoints)
          process.stderr.write(`${endpoint.description}: http://127.0.0.1:${endpoint.port}\n`);
        const { reloadOnChange } = await import('../../toolkit/watch/reload-on-change.js');
        const reloading = synthesizesApp(options)
          ? await reloadOnChange({
              dir: process.cwd(),
              ...(options.output ? { output: options.output } : {}),
              synthesize: () => synthesizeFor(command, options),
              reload: (next) => running.reload(next),
              onInfo: line,
              failed: (error) => {
                for (const text of renderError(error, globalOptions(command).verbose === true)) line(text);
                line('Still serving the previous synthesis; the next change is synthesized again.');
              },
            })
          : undefined;
        // Ctrl-C is handled before the line that says so is printed: a signal sent on seeing it stops cleanly.
        const stopped = new Promise<void>((resolve) => {
          const stop = () => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            void (reloading?.close() ?? Promise.resolve()).then(() => running.close()).then(resolve);
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
        line(
          reloading
            ? "Serving; a change to the app's files is synthesized and served on the next request. Press Ctrl-C to stop."
            : 'Serving; press Ctrl-C to stop.',
        );
        await stopped;
      });
  }
}

function registerStartService(local: Command): void {
  addAppOptions(
    local
      .command('start-service')
      .description(
        "run an ECS service's task definition with the container engine (CDK_DOCKER, else docker, else podman): image assets built, environment, secrets and port mappings from the template",
      )
      .argument(
        '[service]',
        '<stack>/<service>: the service by logical ID or construct path; default: the only one',
      ),
  )
    .option(
      '--no-deployed',
      'do not read the deployed stack (a task with secrets is then refused: their values exist only there)',
    )
    .option(
      '--replicas <n>',
      "how many tasks to run (default: the service's DesiredCount); each after the first publishes every port one higher",
    )
    .option(
      '--no-restart',
      'do not replace a task whose essential container exits (the command ends once none runs)',
    )
    .action(async (target: string | undefined, options: ServiceOptions, command: Command) => {
      const { startService } = await import('../../local/service/start-service.js');
      const replicas = options.replicas === undefined ? undefined : Number(options.replicas);
      if (replicas !== undefined && (!Number.isInteger(replicas) || replicas < 1)) {
        throw new CdkdError(
          'LOCAL_REPLICAS_INVALID',
          `--replicas ${options.replicas} is not a number of tasks.`,
          {
            hint: "Pass a whole number from 1 up, or leave --replicas out to run the service's DesiredCount.",
          },
        );
      }
      const region = regionFor(command);
      const assembly = await synthesizeFor(command, options);
      let deployedSecrets;
      if (options.deployed) {
        const { deployedSecretsReader } = await import('../../local/service/service-secrets.js');
        deployedSecrets = deployedSecretsReader({ ...stateAccess(command), region });
      }
      const verbose = globalOptions(command).verbose === true;
      const running = await startService({
        assembly,
        ...(target !== undefined ? { target } : {}),
        ...(deployedSecrets ? { deployedSecrets } : {}),
        ...(replicas !== undefined ? { replicas } : {}),
        restart: options.restart,
        onLog: line,
        onInfo: line,
        onVerbose: (message) => {
          if (verbose) line(message);
        },
      });
      const name = `${running.service.stack.displayName}/${running.service.name}`;
      for (const [replica, ports] of running.ports.entries())
        for (const port of ports)
          line(
            `ECS service ${name}, task ${replica + 1}: container port ${port.containerPort}/${port.protocol} on 127.0.0.1:${port.hostPort}`,
          );
      const failed = (error: unknown) => {
        for (const text of renderError(error, verbose)) line(text);
        line('The tasks running keep running; the next change is tried again.');
      };
      const { rebuildOnChange, reloadOnChange } = await import('../../toolkit/watch/reload-on-change.js');
      const { imageAssetDirectories } = await import('../../local/service/service-model.js');
      const watching = synthesizesApp(options)
        ? await reloadOnChange({
            dir: process.cwd(),
            ...(options.output ? { output: options.output } : {}),
            synthesize: () => synthesizeFor(command, options),
            reload: (next) => running.reload(next),
            onInfo: line,
            failed,
          })
        : await rebuildOnChange({
            dirs: imageAssetDirectories(running.service),
            rebuild: () => running.rebuild(),
            onInfo: line,
            failed,
          });
      // Ctrl-C is handled before the line that says so is printed: a signal sent on seeing it stops cleanly.
      const ended = new Promise<number | null>((resolve) => {
        let stopping = false;
        const stop = () => {
          stopping = true;
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void watching
            .close()
            .then(() => running.close())
            .then(() => resolve(0));
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        void running.stopped.then(async (exit) => {
          // Containers stopped by Ctrl-C exit too; only an exit of their own fails the command.
          if (stopping) return;
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          await watching.close();
          await running.close();
          resolve(exit);
        });
      });
      line(
        "Running; a change to the app (or, with --app DIR, to an image asset's directory) rebuilds and replaces the tasks. Press Ctrl-C to stop.",
      );
      const code = await ended;
      if (code !== 0) {
        throw new CdkdError(
          'LOCAL_CONTAINER_FAILED',
          `An essential container of ECS service ${name} exited with code ${code}; its task stopped and, with --no-restart, was not replaced (what it printed is above).`,
          {
            hint: `The engine ${running.engine} must be able to run containers here; try the printed ${running.engine} run command yourself.`,
          },
        );
      }
    });
}

const line = (text: string) => void process.stderr.write(`${text}\n`);

/** Whether the command runs the app itself (then it reloads on change), or reads `--app DIR`'s assembly as it stands. */
function synthesizesApp(options: AppOptions): boolean {
  const cwd = process.cwd();
  return (
    resolveAppSource({ app: options.app, env: process.env, config: readProjectConfig(cwd), cwd }).kind ===
    'command'
  );
}

function runOptions(command: Command): Command {
  return command
    .option(
      '--no-deployed',
      "use the template's environment and your own credentials even when the stack is deployed (default: the deployed function's environment and role)",
    )
    .option(
      '--container',
      'run the function in its Lambda base image with the container engine (CDK_DOCKER, else docker)',
    );
}

async function runnerOptions(
  command: Command,
  options: LocalRunOptions,
  assembly: CloudAssembly,
): Promise<LocalRunnerOptions> {
  const region = regionFor(command);
  const warn = (message: string) => process.stderr.write(`warning: ${message}\n`);
  let deployed: LocalRunnerOptions['deployed'];
  if (options.deployed) {
    const { deployedFunctionReader } = await import('../../local/deployed-function.js');
    deployed = deployedFunctionReader({ ...stateAccess(command), region, warn });
  }
  return {
    assembly,
    region,
    ...(deployed ? { deployed } : {}),
    ...(options.container ? { container: true } : {}),
    onLog: (line) => process.stderr.write(`${line}\n`),
    onWarning: warn,
    onInfo: (message) => process.stderr.write(`${message}\n`),
  };
}

async function deployedBuckets(command: Command, region: string) {
  const { deployedBucketReader } = await import('../../local/cloudfront/deployed-bucket.js');
  return deployedBucketReader({ ...stateAccess(command), region });
}

function regionFor(command: Command): string {
  return (
    globalOptions(command).region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1'
  );
}

/** What reading the deployed stacks takes: the session's clients and its state backend, opened on first use. */
function stateAccess(command: Command) {
  const session = sessionFor(command);
  return { clients: session.clients, backend: () => session.stateBackend() };
}

async function readEvent(file: string | undefined): Promise<string> {
  if (file !== undefined) {
    return readFile(file, 'utf8').catch((cause: NodeJS.ErrnoException) => {
      throw new CdkdError(
        'LOCAL_EVENT_INVALID',
        `The event file ${file} cannot be read (${cause.code ?? cause.message}).`,
        {
          hint: 'Pass the path of a JSON file with --event, or the event on stdin.',
          cause,
        },
      );
    });
  }
  if (process.stdin.isTTY) return '{}';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  return text === '' ? '{}' : text;
}

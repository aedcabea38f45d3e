import { createServer, type Server } from 'node:http';
import type { CloudAssembly, StackArtifact } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import type { HttpAnswer, HttpRequest, Invoke } from '../../http-events/types.js';
import { LocalRunner, type LocalRunnerOptions } from '../function-runner.js';
import { findLocalFunction } from '../function-target.js';
import { readRequest, writeAnswer } from './node-http.js';
import { logicalIdOfArn } from './template-refs.js';

/** Something served on a local port: an API, a load balancer's listener. */
export interface LocalEndpoint {
  description: string;
  /** Answers one request; `port` is where it arrived (the endpoint's own). */
  answer: (request: HttpRequest, port: number) => Promise<HttpAnswer>;
}

export interface ServedEndpoint {
  description: string;
  port: number;
}

export interface LocalServers {
  endpoints: ServedEndpoint[];
  close(): Promise<void>;
}

export interface StartInput extends LocalRunnerOptions {
  /** The first endpoint's port; each further one takes the next (0: any free port each). */
  port: number;
}

/**
 * What every `start-*` command does around its endpoints: a runner for the stack's
 * functions, each function it serves checked before serving (so an escaping asset path is
 * refused up front), the endpoints on their ports, and a close that stops both.
 */
export async function startLocalServers(
  input: StartInput,
  stack: StackArtifact,
  functionIds: readonly string[],
  endpoints: (invoke: Invoke) => LocalEndpoint[],
): Promise<LocalServers> {
  const runner = new LocalRunner(input);
  try {
    await checkFunctions(runner, input.assembly, stack, functionIds);
    const servers = await serveEndpoints(
      endpoints(localInvoker(runner, input.assembly, stack, input.onWarning)),
      input.port,
      input,
    );
    return {
      endpoints: servers.endpoints,
      close: async () => {
        await servers.close();
        runner.close();
      },
    };
  } catch (error) {
    runner.close();
    throw error;
  }
}

/** Each endpoint on 127.0.0.1, on `port` and the ports after it (0: any free port each). */
async function serveEndpoints(
  endpoints: readonly LocalEndpoint[],
  port: number,
  log: { onInfo: (message: string) => void; onWarning: (message: string) => void },
): Promise<LocalServers> {
  const servers: Server[] = [];
  const served: ServedEndpoint[] = [];
  const close = () => Promise.all(servers.map(closeServer)).then(() => undefined);
  try {
    for (const [index, endpoint] of endpoints.entries()) {
      const server = createServer();
      const actual = await listen(server, port === 0 ? 0 : port + index);
      servers.push(server);
      served.push({ description: endpoint.description, port: actual });
      server.on('request', (message, response) => {
        readRequest(message)
          .then((request) => endpoint.answer(request, actual))
          .then((answer) => {
            log.onInfo(`${message.method} ${message.url ?? '/'} → ${answer.status}`);
            writeAnswer(response, answer);
          })
          .catch((error: unknown) => {
            log.onWarning(
              `${message.method} ${message.url}: ${error instanceof Error ? error.message : String(error)}`,
            );
            writeAnswer(response, {
              status: 500,
              headers: { 'content-type': 'application/json' },
              body: '{"message":"Internal server error"}',
            });
          });
      });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoints: served, close };
}

/**
 * Invocations by stand-in ARN (the function's logical ID) through the local runner; a
 * function that cannot run here (its runtime, its code) fails the request, not the server.
 */
function localInvoker(
  runner: LocalRunner,
  assembly: CloudAssembly,
  stack: StackArtifact,
  onWarning: (message: string) => void,
): Invoke {
  return async (arn, payload) => {
    try {
      const fn = findLocalFunction(assembly, `${stack.displayName}/${logicalIdOfArn(arn)}`);
      const outcome = await runner.invoke(fn, payload);
      return 'result' in outcome
        ? { payload: outcome.result }
        : { payload: JSON.stringify(outcome.error), functionError: 'Unhandled' };
    } catch (error) {
      onWarning(error instanceof Error ? error.message : String(error));
      return {
        payload: JSON.stringify({ errorType: 'LocalError', errorMessage: String(error) }),
        functionError: 'Unhandled',
      };
    }
  };
}

/** Prepares every function the server runs, so bad code (an escaping asset path) is refused before serving. */
async function checkFunctions(
  runner: LocalRunner,
  assembly: CloudAssembly,
  stack: StackArtifact,
  logicalIds: readonly string[],
): Promise<void> {
  for (const logicalId of logicalIds) {
    await runner.check(findLocalFunction(assembly, `${stack.displayName}/${logicalId}`));
  }
}

/** The stack a `start-*` command serves: the one named, else the only one `has` accepts. */
export function chooseStack(
  stacks: readonly StackArtifact[],
  named: string | undefined,
  has: (stack: StackArtifact) => boolean,
  what: { kinds: string; command: string },
): StackArtifact {
  const candidates = stacks.filter(has);
  if (named !== undefined) {
    const stack = stacks.find(
      (candidate) => candidate.displayName === named || candidate.stackName === named,
    );
    if (stack && has(stack)) return stack;
    throw new CdkdError(
      'LOCAL_API_NOT_FOUND',
      stack ? `The stack ${named} has no ${what.kinds}.` : `The app has no stack ${named}.`,
      { hint: `The stacks with one are: ${candidates.map((s) => s.displayName).join(', ') || 'none'}.` },
    );
  }
  if (candidates.length === 1) return candidates[0]!;
  throw new CdkdError(
    'LOCAL_API_NOT_FOUND',
    candidates.length === 0
      ? `No stack of the app has a ${what.kinds}.`
      : `Several stacks of the app have one.`,
    {
      hint:
        candidates.length === 0
          ? `cdkd local ${what.command} serves ${what.kinds}.`
          : `Name one: cdkd local ${what.command} ${candidates.map((s) => s.displayName).join(' | ')}.`,
    },
  );
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (cause: NodeJS.ErrnoException) =>
      reject(
        cause.code === 'EADDRINUSE'
          ? new CdkdError('LOCAL_PORT_IN_USE', `Port ${port} is in use.`, {
              hint: 'Pass another --port (each endpoint after the first takes the next port).',
              cause,
            })
          : cause,
      ),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

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
  /** Names the endpoint; a reload keeps each endpoint it still has on the port it had. */
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
  /**
   * Serves what `assembly` holds from now on: requests already under way finish on the
   * assembly they started on. A new assembly that cannot be served (no such stack any
   * more, an escaping asset path) throws, and the one before keeps serving.
   */
  reload(assembly: CloudAssembly): Promise<void>;
  close(): Promise<void>;
}

export interface StartInput extends LocalRunnerOptions {
  /** The first endpoint's port; each further one takes the next (0: any free port each). */
  port: number;
}

/** What a `start-*` command serves of one assembly: the stack, its functions, its endpoints. */
export interface ServedPlan {
  stack: StackArtifact;
  functionIds: readonly string[];
  endpoints: (invoke: Invoke) => LocalEndpoint[];
}

/**
 * What every `start-*` command does around its endpoints: a runner for the stack's
 * functions, each function it serves checked before serving (so an escaping asset path is
 * refused up front), the endpoints on their ports, and a close that stops both. `plan`
 * reads an assembly (the first, then each one `reload` is given) into what is served.
 */
export async function startLocalServers<I extends StartInput>(
  input: I,
  plan: (input: I) => ServedPlan | Promise<ServedPlan>,
): Promise<LocalServers> {
  let current = await generation(input, plan);
  const servers = new Map<string, Listening>();
  const serve = async (endpoints: readonly LocalEndpoint[]) => {
    for (const endpoint of endpoints) {
      if (servers.has(endpoint.description)) continue;
      const used = [...servers.values()].map((listening) => listening.port);
      const port = input.port === 0 ? 0 : used.length === 0 ? input.port : Math.max(...used) + 1;
      servers.set(endpoint.description, await listenFor(endpoint.description, port, () => current, input));
    }
  };
  const served = () =>
    [...servers.entries()].map(([description, listening]) => ({ description, port: listening.port }));
  const close = async () => {
    await Promise.all([...servers.values()].map((listening) => closeServer(listening.server)));
    servers.clear();
    current.retire();
  };
  try {
    await serve(current.endpoints);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    endpoints: served(),
    reload: async (assembly) => {
      const next = await generation({ ...input, assembly }, plan);
      const previous = current;
      current = next;
      previous.retire();
      const kept = new Set(next.endpoints.map((endpoint) => endpoint.description));
      for (const [description, listening] of servers) {
        if (kept.has(description)) continue;
        servers.delete(description);
        await closeServer(listening.server);
        input.onInfo(`${description}: no longer in the app; port ${listening.port} closed.`);
      }
      const before = new Set(servers.keys());
      await serve(next.endpoints);
      for (const endpoint of served())
        if (!before.has(endpoint.description))
          input.onInfo(`${endpoint.description}: http://127.0.0.1:${endpoint.port}`);
    },
    close,
  };
}

/**
 * One assembly's endpoints and the runner behind them. Its runner (and the temp files it
 * holds) is closed once the generation is retired and no request is still using it.
 */
interface Generation {
  endpoints: LocalEndpoint[];
  /** Runs `work` on this generation: a retirement meanwhile waits for it. */
  use<T>(work: (endpoints: readonly LocalEndpoint[]) => Promise<T>): Promise<T>;
  retire(): void;
}

async function generation<I extends StartInput>(
  input: I,
  plan: (input: I) => ServedPlan | Promise<ServedPlan>,
): Promise<Generation> {
  const planned = await plan(input);
  const runner = new LocalRunner(input);
  try {
    await checkFunctions(runner, input.assembly, planned.stack, planned.functionIds);
  } catch (error) {
    runner.close();
    throw error;
  }
  const endpoints = planned.endpoints(localInvoker(runner, input.assembly, planned.stack, input.onWarning));
  let inFlight = 0;
  let retired = false;
  return {
    endpoints,
    use: async (work) => {
      inFlight++;
      try {
        return await work(endpoints);
      } finally {
        inFlight--;
        if (retired && inFlight === 0) runner.close();
      }
    },
    retire: () => {
      retired = true;
      if (inFlight === 0) runner.close();
    },
  };
}

interface Listening {
  server: Server;
  port: number;
}

/** A port on 127.0.0.1 answering with the endpoint of this description in the generation served at each request's arrival. */
async function listenFor(
  description: string,
  port: number,
  current: () => Generation,
  log: { onInfo: (message: string) => void; onWarning: (message: string) => void },
): Promise<Listening> {
  const server = createServer();
  const actual = await listen(server, port);
  server.on('request', (message, response) => {
    const served = current();
    served
      .use(async (endpoints) => {
        const request = await readRequest(message);
        const endpoint = endpoints.find((candidate) => candidate.description === description);
        if (!endpoint) return { status: 503, headers: {}, body: `${description} is no longer in the app.` };
        return endpoint.answer(request, actual);
      })
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
  return { server, port: actual };
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

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { StackArtifact } from '../../assembly/index.js';
import type { HttpAuthorizerAnswer } from '../../http-events/authorizers/http-authorizer.js';
import type { PolicyOutput } from '../../http-events/authorizers/rest-authorizer.js';
import { AuthorizerResultCache } from '../../http-events/authorizers/result-cache.js';
import type { InvocationResult } from '../../http-events/types.js';
import { CdkdError } from '../../errors.js';
import { LocalRunner, type LocalRunnerOptions } from '../function-runner.js';
import { findLocalFunction } from '../function-target.js';
import { hasApi, localApis, type LocalApi } from './api-model.js';
import { readRequest, writeAnswer } from './node-http.js';
import { serveHttp } from './serve-http.js';
import { serveRest } from './serve-rest.js';
import { functionsOf } from './api-model.js';
import { logicalIdOfArn } from './template-refs.js';

export interface StartApiInput extends LocalRunnerOptions {
  /** The stack by display path or name; default: the only stack with an API. */
  stack?: string;
  /** The first API's port; each further API takes the next one (0: any free port each). */
  port: number;
}

export interface ServedApi {
  description: string;
  port: number;
}

export interface StartedApis {
  apis: ServedApi[];
  close(): Promise<void>;
}

/**
 * `cdkd local start-api`: each REST and HTTP API of the stack on a local port, each request
 * routed, authorized and answered as API Gateway would, its functions run by the local
 * runner (a fresh runtime process per request, so a code edit shows on the next request).
 */
export async function startApi(input: StartApiInput): Promise<StartedApis> {
  const stack = chooseStack(input.assembly.stacks, input.stack);
  const apis = localApis(stack, input.region);
  const runner = new LocalRunner(input);
  const invoke = async (arn: string, payload: string): Promise<InvocationResult> => {
    try {
      const fn = findLocalFunction(input.assembly, `${stack.displayName}/${logicalIdOfArn(arn)}`);
      const outcome = await runner.invoke(fn, payload);
      return 'result' in outcome
        ? { payload: outcome.result }
        : { payload: JSON.stringify(outcome.error), functionError: 'Unhandled' };
    } catch (error) {
      // A function that cannot run here (its runtime, its code) fails this request, not the server.
      input.onWarning(error instanceof Error ? error.message : String(error));
      return {
        payload: JSON.stringify({ errorType: 'LocalError', errorMessage: String(error) }),
        functionError: 'Unhandled',
      };
    }
  };
  for (const logicalId of functionsOf(apis)) {
    await runner
      .check(findLocalFunction(input.assembly, `${stack.displayName}/${logicalId}`))
      .catch((error: unknown) => {
        runner.close();
        throw error;
      });
  }
  const servers: Server[] = [];
  const served: ServedApi[] = [];
  try {
    for (const [index, api] of apis.entries()) {
      const wanted = input.port === 0 ? 0 : input.port + index;
      const server = createServer();
      const port = await listen(server, wanted);
      servers.push(server);
      served.push({
        description: `${api.kind === 'rest' ? 'REST' : 'HTTP'} API ${stack.displayName}/${api.logicalId} (${api.name})`,
        port,
      });
      const handle = handler(api, { invoke, region: input.region, port }, input.onInfo);
      server.on('request', (request, response) => {
        handle(request, response).catch((error: unknown) => {
          input.onWarning(
            `${request.method} ${request.url}: ${error instanceof Error ? error.message : String(error)}`,
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
    await Promise.all(servers.map(closeServer));
    runner.close();
    throw error;
  }
  return {
    apis: served,
    close: async () => {
      await Promise.all(servers.map(closeServer));
      runner.close();
    },
  };
}

function handler(
  api: LocalApi,
  context: {
    invoke: (arn: string, payload: string) => Promise<InvocationResult>;
    region: string;
    port: number;
  },
  onInfo: (message: string) => void,
) {
  const restCache = new AuthorizerResultCache<PolicyOutput>();
  const httpCache = new AuthorizerResultCache<HttpAuthorizerAnswer>();
  return async (message: IncomingMessage, response: ServerResponse) => {
    const request = await readRequest(message);
    const answer =
      api.kind === 'rest'
        ? await serveRest(api, restCache, context, request)
        : await serveHttp(api, httpCache, context, request);
    onInfo(`${request.method} ${message.url ?? '/'} → ${answer.status}`);
    writeAnswer(response, answer);
  };
}

function chooseStack(stacks: readonly StackArtifact[], named: string | undefined): StackArtifact {
  if (named !== undefined) {
    const stack = stacks.find(
      (candidate) => candidate.displayName === named || candidate.stackName === named,
    );
    if (stack && hasApi(stack)) return stack;
    throw new CdkdError(
      'LOCAL_API_NOT_FOUND',
      stack ? `The stack ${named} has no REST or HTTP API.` : `The app has no stack ${named}.`,
      {
        hint: `The stacks with an API are: ${
          stacks
            .filter(hasApi)
            .map((s) => s.displayName)
            .join(', ') || 'none'
        }.`,
      },
    );
  }
  const withApis = stacks.filter(hasApi);
  if (withApis.length === 1) return withApis[0]!;
  throw new CdkdError(
    'LOCAL_API_NOT_FOUND',
    withApis.length === 0
      ? 'No stack of the app has a REST or HTTP API.'
      : 'Several stacks of the app have APIs.',
    {
      hint:
        withApis.length === 0
          ? 'cdkd local start-api serves AWS::ApiGateway::RestApi and AWS::ApiGatewayV2::Api (HTTP) resources.'
          : `Name one: cdkd local start-api ${withApis.map((s) => s.displayName).join(' | ')}.`,
    },
  );
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (cause: NodeJS.ErrnoException) =>
      reject(
        cause.code === 'EADDRINUSE'
          ? new CdkdError('LOCAL_PORT_IN_USE', `Port ${port} is in use.`, {
              hint: 'Pass another --port (each API after the first takes the next port).',
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

import { LocalRunner, type LocalRunnerOptions } from '../function-runner.js';
import {
  checkFunctions,
  chooseStack,
  localInvoker,
  serveEndpoints,
  type LocalServers,
} from '../serve/local-servers.js';
import { albFunctions, hasListener, localListeners } from './alb-model.js';
import { serveAlb } from './serve-alb.js';

export interface StartAlbInput extends LocalRunnerOptions {
  stack?: string;
  /** The first listener's port; each further listener takes the next one (0: any free port each). */
  port: number;
}

/**
 * `cdkd local start-alb`: each Application Load Balancer listener of the stack on a local
 * port, its rules matched in priority order, Lambda targets run by the local runner.
 */
export async function startAlb(input: StartAlbInput): Promise<LocalServers> {
  const stack = chooseStack(input.assembly.stacks, input.stack, hasListener, {
    kinds: 'load balancer listener',
    command: 'start-alb',
  });
  const listeners = localListeners(stack);
  const runner = new LocalRunner(input);
  try {
    await checkFunctions(runner, input.assembly, stack, albFunctions(listeners));
    const invoke = localInvoker(runner, input.assembly, stack, input.onWarning);
    const servers = await serveEndpoints(
      listeners.map((listener) => ({
        description: `ALB listener ${stack.displayName}/${listener.logicalId} (port ${listener.port})`,
        answer: (request) => serveAlb(listener, invoke, input.region, request),
      })),
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

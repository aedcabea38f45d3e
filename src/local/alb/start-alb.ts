import {
  chooseStack,
  startLocalServers,
  type LocalServers,
  type ServedPlan,
  type StartInput,
} from '../serve/local-servers.js';
import { albFunctions, hasListener, localListeners } from './alb-model.js';
import { serveAlb } from './serve-alb.js';

export interface StartAlbInput extends StartInput {
  /** The stack by display path or name; default: the only stack with a listener. */
  stack?: string;
}

/**
 * `cdkd local start-alb`: each Application Load Balancer listener of the stack on a local
 * port, its rules matched in priority order, Lambda targets run by the local runner.
 */
export function startAlb(input: StartAlbInput): Promise<LocalServers> {
  return startLocalServers(input, albPlan);
}

function albPlan(input: StartAlbInput): ServedPlan {
  const stack = chooseStack(input.assembly.stacks, input.stack, hasListener, {
    kinds: 'load balancer listener',
    command: 'start-alb',
  });
  const listeners = localListeners(stack);
  return {
    stack,
    functionIds: albFunctions(listeners),
    endpoints: (invoke) =>
      listeners.map((listener) => ({
        description: `ALB listener ${stack.displayName}/${listener.logicalId} (port ${listener.port})`,
        answer: (request) => serveAlb(listener, invoke, input.region, request),
      })),
  };
}

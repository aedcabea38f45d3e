import { SandboxError } from '../../../errors.js';
import type { FunctionConfig } from '../model.js';
import type { Launch, RuntimeLayout } from '../../../../lambda-runtime/launch.js';
import { isNodeRuntime, nodeLaunch } from '../../../../lambda-runtime/node/node-runtime.js';
import {
  PYTHON_RUNTIME,
  pythonInterpreter,
  pythonLaunch,
} from '../../../../lambda-runtime/python/python-runtime.js';

export type Launcher = (layout: RuntimeLayout) => Launch;

/**
 * How the sandbox starts a zip function of this runtime, or Lambda's InvalidRuntimeException
 * naming the runtime when it cannot run it here (raised before anything runs, so an Event
 * invoke fails at the call rather than silently).
 */
export function launcherFor(config: Pick<FunctionConfig, 'runtime'>, functionName: string): Launcher {
  const { runtime } = config;
  if (runtime !== undefined && isNodeRuntime(runtime)) return nodeLaunch;
  if (runtime !== undefined && PYTHON_RUNTIME.test(runtime)) {
    const python = pythonInterpreter();
    if (python) return (layout) => pythonLaunch(layout, python);
    throw unsupported(
      `The sandbox cannot run ${runtime} (function ${functionName}): python3 was not found on PATH. Install python3 (and python3-boto3 for handlers that import boto3).`,
    );
  }
  throw unsupported(
    `The sandbox cannot run the runtime ${runtime ?? '(none: container image)'} (function ${functionName}): it runs nodejs16.x and later, and python3.x where python3 is installed.`,
  );
}

function unsupported(message: string): SandboxError {
  return new SandboxError('InvalidRuntimeException', message, 502);
}

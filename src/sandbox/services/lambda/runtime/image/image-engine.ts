import { chooseContainerEngine } from '../../../../../container-engine.js';
import { SandboxError } from '../../../../errors.js';
import type { ImageConfigRecord } from '../../model.js';

/** What the name of every image function's container starts with. */
export const CONTAINER_PREFIX = 'cdkd-lambda-';
/** The label holding the pid of the sandbox that ran an image function's container. */
export const SANDBOX_PID_LABEL = 'cdkd.sandbox-pid';

/** The container of one invocation, named for its function and request, in the characters engines accept. */
export const containerName = (functionName: string, requestId: string): string =>
  `${CONTAINER_PREFIX}${functionName}-${requestId}`.replace(/[^a-zA-Z0-9_.-]+/g, '-');

/**
 * The container engine that runs image functions (CDK_DOCKER, else docker, else podman, as
 * the rest of cdkd finds it), or Lambda's InvalidRuntimeException (502) naming what is
 * missing, raised before anything runs so an Event invoke fails at the call.
 */
export function imageEngine(functionName: string, imageUri: string, env: NodeJS.ProcessEnv): string {
  const choice = chooseContainerEngine(env);
  if ('engine' in choice) return choice.engine;
  const missing =
    choice.missing === 'cdk-docker'
      ? `CDK_DOCKER names the container engine "${choice.named}", which is not on the PATH`
      : 'no container engine is on the PATH (CDK_DOCKER unset, neither docker nor podman found)';
  throw new SandboxError(
    'InvalidRuntimeException',
    `The sandbox cannot invoke the container image function ${functionName} (${imageUri}): ${missing}. Install Docker or podman, or set CDK_DOCKER to a Docker-compatible CLI that can run containers.`,
    502,
  );
}

/**
 * The engine could not start the container (`run` exited 125 or 126 before the runtime asked
 * for its invocation: no daemon, an OCI runtime that fails here): InvalidRuntimeException
 * with what the engine said.
 */
export function engineCannotRun(
  functionName: string,
  engine: string,
  status: string,
  stderr: string,
): SandboxError {
  const said = lastLines(stderr);
  return new SandboxError(
    'InvalidRuntimeException',
    `The sandbox cannot invoke the container image function ${functionName}: the container engine "${engine}" could not run its container (${status}${said ? `: ${said}` : ''}). Make the engine able to run containers (a running Docker daemon; for podman where its default OCI runtime fails, a wrapper script running \`podman --runtime runc --cgroup-manager cgroupfs "$@"\` named by CDK_DOCKER), or set CDK_DOCKER to one that can.`,
    502,
  );
}

/** The engine could not pull the function's image from the sandbox's registry. */
export function engineCannotPull(
  functionName: string,
  engine: string,
  image: string,
  stderr: string,
): SandboxError {
  const said = lastLines(stderr);
  return new SandboxError(
    'InvalidRuntimeException',
    `The sandbox cannot invoke the container image function ${functionName}: the container engine "${engine}" could not pull ${image} from the sandbox's registry${said ? `: ${said}` : ''}. Check that the engine works (a running Docker daemon, or podman) and reaches the sandbox's port on this machine, or set CDK_DOCKER to one that does.`,
    502,
  );
}

export interface ImageRunInput {
  /** The image as the engine pulled it (`127.0.0.1:<port>/<repository>@sha256:…`). */
  image: string;
  name: string;
  /** The sandbox's process, whose pid labels the container (image-leftovers.ts). */
  sandboxPid: number;
  /** The variables the container gets; passed by name, their values in the engine's environment. */
  environment: Readonly<Record<string, string>>;
  /** The function's ImageConfig. */
  overrides?: ImageConfigRecord;
  /** The image's own CMD: kept when ImageConfig replaces only the entry point. */
  imageCommand?: readonly string[];
}

/**
 * `<engine> run` for one invocation: labelled with the sandbox's pid (a later sandbox removes
 * it if this one is killed before it can), on the host's network (the runtime API and the sandbox
 * are on its loopback), variables by name (`-e NAME`) so no value shows in the process
 * list, ImageConfig's EntryPoint (first word as `--entrypoint`, the rest ahead of the
 * command), Command and WorkingDirectory over the image's, as Lambda applies them.
 */
export function imageRunArgs(input: ImageRunInput): string[] {
  const { overrides = {} } = input;
  const [entry, ...entryRest] = overrides.EntryPoint ?? [];
  // An engine's --entrypoint drops the image's CMD; Lambda keeps it unless Command replaces it.
  const command = overrides.Command ?? (entry !== undefined ? (input.imageCommand ?? []) : []);
  return [
    'run',
    '--rm',
    '--name',
    input.name,
    '--label',
    `${SANDBOX_PID_LABEL}=${input.sandboxPid}`,
    '--network',
    'host',
    ...Object.keys(input.environment)
      .sort()
      .flatMap((name) => ['-e', name]),
    ...(overrides.WorkingDirectory ? ['-w', overrides.WorkingDirectory] : []),
    ...(entry !== undefined ? ['--entrypoint', entry] : []),
    input.image,
    ...entryRest,
    ...command,
  ];
}

/**
 * Podman and Docker pulling from the sandbox's registry (plain HTTP on the loopback, the
 * credentials GetAuthorizationToken gives): an auth file both read (REGISTRY_AUTH_FILE,
 * DOCKER_CONFIG/config.json) and, for podman, a registries.conf marking it insecure
 * (Docker treats 127.0.0.0/8 as insecure already).
 */
export function pullFiles(
  registry: string,
  credentials: { username: string; password: string },
): { authJson: string; registriesConf: string } {
  const auth = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
  return {
    authJson: JSON.stringify({ auths: { [registry]: { auth } } }),
    registriesConf: `[[registry]]\nlocation = "${registry}"\ninsecure = true\n`,
  };
}

/** The end of what the engine printed (its error is last), short enough for a message. */
function lastLines(stderr: string): string {
  return stderr.trim().split('\n').slice(-3).join(' ').slice(0, 600);
}

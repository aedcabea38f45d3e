import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Which container engine to use: CDK_DOCKER as the CDK CLI reads it, else docker, else
 * podman, the first on the PATH (`onPath` tells). Each caller turns a missing one into its
 * own error (the CLI's code, the sandbox's Lambda error).
 */
export type EngineChoice =
  { engine: string } | { missing: 'cdk-docker'; named: string } | { missing: 'none' };

export function chooseContainerEngine(
  env: NodeJS.ProcessEnv,
  onPath: (program: string) => boolean = (program) => isOnPath(program, env),
): EngineChoice {
  if (env.CDK_DOCKER) {
    return onPath(env.CDK_DOCKER)
      ? { engine: env.CDK_DOCKER }
      : { missing: 'cdk-docker', named: env.CDK_DOCKER };
  }
  for (const candidate of ['docker', 'podman']) if (onPath(candidate)) return { engine: candidate };
  return { missing: 'none' };
}

/** Whether `program` (a name searched on PATH, or a path) is an executable file. */
export function isOnPath(program: string, env: NodeJS.ProcessEnv): boolean {
  const candidates =
    isAbsolute(program) || program.includes('/')
      ? [program]
      : (env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, program));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

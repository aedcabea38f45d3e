import type { ContainerAsset, DockerCacheOption } from '../../assembly/index.js';

/** The parts of a container asset's source that become `build` flags. */
export type BuildOptions = Pick<
  ContainerAsset,
  | 'dockerFile'
  | 'dockerBuildTarget'
  | 'dockerBuildArgs'
  | 'dockerBuildContexts'
  | 'dockerBuildSecrets'
  | 'dockerBuildSsh'
  | 'networkMode'
  | 'platform'
  | 'dockerOutputs'
  | 'cacheFrom'
  | 'cacheTo'
  | 'cacheDisabled'
>;

/**
 * The arguments of `<cli> build` for an asset, run in the asset's directory (the build
 * context is `.`), in the order and spelling the CDK CLI uses, so a Docker-compatible CLI
 * that builds an asset for `cdk deploy` builds it the same way here.
 */
export function buildArguments(options: BuildOptions, tag: string): string[] {
  return [
    'build',
    ...Object.entries(options.dockerBuildArgs ?? {}).flatMap(([key, value]) => [
      '--build-arg',
      `${key}=${value}`,
    ]),
    ...Object.entries(options.dockerBuildSecrets ?? {}).flatMap(([id, spec]) => [
      '--secret',
      `id=${id},${spec}`,
    ]),
    ...(options.dockerBuildSsh ? ['--ssh', options.dockerBuildSsh] : []),
    '--tag',
    tag,
    ...(options.dockerBuildTarget ? ['--target', options.dockerBuildTarget] : []),
    ...(options.dockerFile ? ['--file', options.dockerFile] : []),
    ...(options.networkMode ? ['--network', options.networkMode] : []),
    ...(options.platform ? ['--platform', options.platform] : []),
    ...(options.dockerOutputs ?? []).map((output) => `--output=${output}`),
    ...(options.cacheFrom ?? []).flatMap((cache) => ['--cache-from', cacheFlag(cache)]),
    ...(options.cacheTo ? ['--cache-to', cacheFlag(options.cacheTo)] : []),
    ...(options.cacheDisabled ? ['--no-cache'] : []),
    ...Object.entries(options.dockerBuildContexts ?? {}).flatMap(([name, path]) => [
      '--build-context',
      `${name}=${path}`,
    ]),
    '.',
  ];
}

/** `type=registry,ref=...`: a cache backend as `--cache-from` / `--cache-to` take it. */
function cacheFlag(cache: DockerCacheOption): string {
  return [
    `type=${cache.type}`,
    ...Object.entries(cache.params ?? {}).map(([key, value]) => `${key}=${value}`),
  ].join(',');
}

/** The local tag an asset is built under before it is tagged for each repository. */
export function localImageTag(hash: string): string {
  return `cdkasset-${hash.toLowerCase()}`;
}

/**
 * Podman (and podman-named wrappers) refuse a plain-HTTP registry unless told; Docker takes
 * no such flag and treats 127.0.0.0/8 as insecure already.
 */
export function tlsArguments(cli: string, secure: boolean): string[] {
  return !secure && /podman/.test(cli.split(/[\\/]/).pop() ?? cli) ? ['--tls-verify=false'] : [];
}

export function loginArguments(
  cli: string,
  registry: { host: string; secure: boolean },
  username: string,
): string[] {
  return [
    'login',
    ...tlsArguments(cli, registry.secure),
    '--username',
    username,
    '--password-stdin',
    registry.host,
  ];
}

export function pushArguments(cli: string, registry: { secure: boolean }, image: string): string[] {
  return ['push', ...tlsArguments(cli, registry.secure), image];
}

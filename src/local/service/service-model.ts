import type { ContainerAsset, StackArtifact } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import { refOf, resourcesOf } from '../serve/template-refs.js';

/** Where a container's image comes from. */
export type ServiceImage = { kind: 'asset'; asset: ContainerAsset } | { kind: 'registry'; image: string };

export interface PortMapping {
  containerPort: number;
  hostPort: number;
  protocol: 'tcp' | 'udp';
}

/** One container of the task definition, as the engine runs it. */
export interface ServiceContainer {
  name: string;
  image: ServiceImage;
  essential: boolean;
  /** How long a stop waits after SIGTERM before killing it: StopTimeout, ECS's 30 s when absent. */
  stopTimeoutSeconds: number;
  environment: Record<string, string>;
  /** Secret names with what the template says they come from (an ARN expression). */
  secrets: Array<{ name: string; valueFrom: unknown }>;
  portMappings: PortMapping[];
  command?: string[];
  entryPoint?: string[];
  workingDirectory?: string;
  user?: string;
}

export interface LocalService {
  stack: StackArtifact;
  logicalId: string;
  /** The construct path under the stack (`Web/Service` → `Web`), for messages. */
  name: string;
  containers: ServiceContainer[];
  /** The template's DesiredCount, as written (a number, a token, or absent). */
  desiredCount: unknown;
}

const SERVICE = 'AWS::ECS::Service';
/** ECS's wait between a container's SIGTERM and its SIGKILL when the definition sets none. */
const ECS_STOP_TIMEOUT_SECONDS = 30;

/**
 * The ECS service `[stack]/[service]` names (the stack by display path or name, the service
 * by logical ID or construct path), else the only service of the app.
 */
export function findService(stacks: readonly StackArtifact[], target: string | undefined): LocalService {
  const all = stacks.flatMap((stack) =>
    Object.entries(resourcesOf(stack.template))
      .filter(([, resource]) => resource.Type === SERVICE)
      .map(([logicalId]) => ({ stack, logicalId, path: constructPath(stack, logicalId) })),
  );
  const names = all.map((s) => `${s.stack.displayName}/${s.path ?? s.logicalId}`);
  const matching =
    target === undefined
      ? all
      : all.filter(({ stack, logicalId, path }) =>
          [stack.displayName, stack.stackName].some(
            (prefix) =>
              target === prefix ||
              target === `${prefix}/${logicalId}` ||
              (path !== undefined &&
                (target === `${prefix}/${path}` || target === `${prefix}/${path}/Service`)),
          ),
        );
  if (matching.length !== 1) {
    throw new CdkdError(
      'LOCAL_SERVICE_NOT_FOUND',
      matching.length === 0
        ? target === undefined
          ? 'No stack of the app has an ECS service.'
          : `No ECS service of the app matches "${target}".`
        : `Several ECS services match${target === undefined ? '' : ` "${target}"`}.`,
      {
        hint:
          names.length > 0
            ? `Name one as <stack>/<service>: ${names.join(', ')}.`
            : 'cdkd local start-service runs an AWS::ECS::Service.',
      },
    );
  }
  const found = matching[0]!;
  return serviceOf(found.stack, found.logicalId, found.path ?? found.logicalId);
}

function serviceOf(stack: StackArtifact, logicalId: string, name: string): LocalService {
  const resources = resourcesOf(stack.template);
  const taskId = refOf(resources[logicalId]?.Properties?.TaskDefinition);
  const task = taskId ? resources[taskId] : undefined;
  if (!task || task.Type !== 'AWS::ECS::TaskDefinition') {
    throw new CdkdError(
      'LOCAL_SERVICE_NOT_FOUND',
      `ECS service ${stack.displayName}/${name} does not name a task definition of its stack.`,
      {
        hint: 'cdkd local start-service runs a service whose TaskDefinition is a Ref to one in the same stack.',
      },
    );
  }
  const definitions = Array.isArray(task.Properties?.ContainerDefinitions)
    ? task.Properties.ContainerDefinitions
    : [];
  return {
    stack,
    logicalId,
    name,
    desiredCount: resources[logicalId]?.Properties?.DesiredCount,
    containers: definitions.map((raw) => container(stack, name, raw as Record<string, unknown>)),
  };
}

function container(stack: StackArtifact, service: string, raw: Record<string, unknown>): ServiceContainer {
  const name = String(raw.Name);
  const environment: Record<string, string> = {};
  for (const entry of list(raw.Environment)) {
    const { Name, Value } = entry as { Name?: unknown; Value?: unknown };
    if (typeof Name !== 'string') continue;
    if (typeof Value !== 'string' && typeof Value !== 'number' && typeof Value !== 'boolean') {
      throw new CdkdError(
        'LOCAL_SERVICE_UNRESOLVED',
        `Container ${name} of ECS service ${stack.displayName}/${service}: its variable ${Name} is computed at deploy time (${JSON.stringify(Value)}).`,
        {
          hint: 'cdkd local start-service passes variables the template holds as plain values; pass this one as a plain value, or read it from the deployed service.',
        },
      );
    }
    environment[Name] = String(Value);
  }
  return {
    name,
    image: imageOf(stack, service, name, raw.Image),
    essential: raw.Essential !== false,
    stopTimeoutSeconds: typeof raw.StopTimeout === 'number' ? raw.StopTimeout : ECS_STOP_TIMEOUT_SECONDS,
    environment,
    secrets: list(raw.Secrets).map((entry) => {
      const { Name, ValueFrom } = entry as { Name?: unknown; ValueFrom?: unknown };
      return { name: String(Name), valueFrom: ValueFrom };
    }),
    portMappings: list(raw.PortMappings).map((entry) => {
      const mapping = entry as { ContainerPort?: unknown; HostPort?: unknown; Protocol?: unknown };
      const containerPort = Number(mapping.ContainerPort);
      // awsvpc (Fargate) publishes each container port as itself; a HostPort of 0 is a dynamic one.
      const hostPort = mapping.HostPort === undefined ? containerPort : Number(mapping.HostPort);
      return { containerPort, hostPort, protocol: mapping.Protocol === 'udp' ? 'udp' : 'tcp' };
    }),
    ...(strings(raw.Command) ? { command: strings(raw.Command)! } : {}),
    ...(strings(raw.EntryPoint) ? { entryPoint: strings(raw.EntryPoint)! } : {}),
    ...(typeof raw.WorkingDirectory === 'string' ? { workingDirectory: raw.WorkingDirectory } : {}),
    ...(typeof raw.User === 'string' ? { user: raw.User } : {}),
  };
}

/**
 * A container's image: a plain string is a registry image; CDK writes an image asset as
 * the asset repository's URI ending in `:<asset tag>`, matched here to the stack's assets.
 */
function imageOf(stack: StackArtifact, service: string, container: string, image: unknown): ServiceImage {
  if (typeof image === 'string') return { kind: 'registry', image };
  const text = JSON.stringify(image);
  const asset = stack.assetManifests
    .flatMap((manifest) => manifest.containers)
    .find((candidate) => candidate.destinations.some((d) => text.includes(`:${d.imageTag}`)));
  if (asset) return { kind: 'asset', asset };
  throw new CdkdError(
    'LOCAL_SERVICE_UNRESOLVED',
    `Container ${container} of ECS service ${stack.displayName}/${service}: its image ${text} is neither a registry image nor an image asset of the app.`,
    {
      hint: 'cdkd local start-service runs images from ContainerImage.fromAsset or ContainerImage.fromRegistry.',
    },
  );
}

function constructPath(stack: StackArtifact, logicalId: string): string | undefined {
  const metadata = (
    resourcesOf(stack.template)[logicalId] as { Metadata?: Record<string, unknown> } | undefined
  )?.Metadata;
  const path = metadata?.['aws:cdk:path'];
  if (typeof path !== 'string' || !path.startsWith(`${stack.displayName}/`)) return undefined;
  return path.slice(stack.displayName.length + 1).replace(/\/Service$/, '');
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? (value as string[])
    : undefined;
}

/** The directories of the service's image assets (in the assembly): with --app DIR, their files are the source. */
export function imageAssetDirectories(service: LocalService): string[] {
  return [
    ...new Set(
      service.containers.flatMap((container) =>
        container.image.kind === 'asset' && container.image.asset.absoluteDirectory
          ? [container.image.asset.absoluteDirectory]
          : [],
      ),
    ),
  ];
}

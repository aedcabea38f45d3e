/**
 * ECS's JSON API names what CloudFormation's ECS types name in PascalCase in camelCase
 * (`ContainerDefinitions[].PortMappings` is `containerDefinitions[].portMappings`), with a few
 * names of its own. cdkd's ECS providers send templates through it, and the sandbox keeps ECS
 * resources as Cloud Control models, so both convert with these two functions.
 */

/** CloudFormation names whose API name is not the plain camelCase of it. */
const SPECIAL: Readonly<Record<string, string>> = {
  EFSVolumeConfiguration: 'efsVolumeConfiguration',
  FSxWindowsFileServerVolumeConfiguration: 'fsxWindowsFileServerVolumeConfiguration',
  IAM: 'iam',
};
const SPECIAL_BACK = Object.fromEntries(Object.entries(SPECIAL).map(([pascal, camel]) => [camel, pascal]));

/** Objects whose keys are data (labels, log driver options), converted neither way. */
const DATA_MAPS: ReadonlySet<string> = new Set(['DockerLabels', 'Options', 'DriverOpts', 'Labels']);

/** Top-level renames per ECS resource: CloudFormation's name → the API's. */
export const ECS_TOP_LEVEL_RENAMES = {
  cluster: { ClusterSettings: 'settings' },
  service: { PlacementStrategies: 'placementStrategy' },
  taskDefinition: {},
} as const satisfies Record<string, Record<string, string>>;

export type EcsResourceKind = keyof typeof ECS_TOP_LEVEL_RENAMES;

function camel(name: string): string {
  if (SPECIAL[name]) return SPECIAL[name]!;
  const run = /^[A-Z]+/.exec(name)?.[0] ?? '';
  // `EnableECSManagedTags` → `enableECSManagedTags`; `Cpu` → `cpu`; `IPC` → `ipc`.
  const lower = run.length > 1 && run.length < name.length ? run.length - 1 : run.length;
  return name.slice(0, lower).toLowerCase() + name.slice(lower);
}

function pascal(name: string): string {
  return SPECIAL_BACK[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}

function convert(
  value: unknown,
  rename: (key: string) => string,
  isDataMap: (key: string) => boolean,
): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, rename, isDataMap));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      rename(key),
      isDataMap(key) ? inner : convert(inner, rename, isDataMap),
    ]),
  );
}

/** A CloudFormation-shaped ECS resource (or any part of one) as ECS's API takes it. */
export function toEcsShape(
  properties: Record<string, unknown>,
  kind: EcsResourceKind,
): Record<string, unknown> {
  const renames: Record<string, string> = ECS_TOP_LEVEL_RENAMES[kind];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties)) {
    out[renames[key] ?? camel(key)] = DATA_MAPS.has(key)
      ? value
      : convert(value, camel, (k) => DATA_MAPS.has(k));
  }
  return out;
}

/** ECS's API shape of a resource back in CloudFormation's names. */
export function fromEcsShape(input: Record<string, unknown>, kind: EcsResourceKind): Record<string, unknown> {
  const back = Object.fromEntries(
    Object.entries(ECS_TOP_LEVEL_RENAMES[kind] as Record<string, string>).map(([cfn, api]) => [api, cfn]),
  );
  const isDataMap = (key: string) => DATA_MAPS.has(pascal(key));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    out[back[key] ?? pascal(key)] = isDataMap(key) ? value : convert(value, pascal, isDataMap);
  }
  return out;
}

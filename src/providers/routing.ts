import { replacementOf } from '../resource-types/index.js';
import type { JsonObject, ProviderKind } from './provider.js';

/**
 * A per-type exception to the stickiness of `provisionedBy: cc-api` (spec 003, "Routing"):
 * - `sdk-coverage`: Cloud Control manages the type but is slower, and the SDK provider
 *   covers every property; a resource moves back on its next mutating deploy, unless
 *   `--pin-cc-api` names it.
 * - `cc-cannot-manage`: Cloud Control cannot manage the type correctly; the SDK provider
 *   always serves it, whatever the record or `--pin-cc-api` say.
 */
export type StickyExemption = 'sdk-coverage' | 'cc-cannot-manage';

export type RouteReason =
  | 'no-sdk-provider'
  | 'sdk-provider'
  | 'uncovered-property'
  | 'prefer-sdk-route'
  | 'sticky'
  | 'returning-to-sdk'
  | 'cc-cannot-manage';

/** `--prefer-sdk-route`: every dropped property of the run (`all`), or these `Type:Property` pairs. */
export type PreferSdkRoute = 'all' | readonly { type: string; property: string }[];

/** The run's routing flags, as the engine applies them per resource. */
export interface RoutingOptions {
  preferSdkRoute?: PreferSdkRoute;
  /** `--pin-cc-api`: logical ids kept on Cloud Control when their type could return. */
  pinCcApi?: ReadonlySet<string>;
}

export interface RouteFacts {
  hasSdkProvider: boolean;
  exemption?: StickyExemption | undefined;
  /** The record's `provisionedBy`; undefined for a resource not yet made. */
  recordedBy?: ProviderKind | undefined;
  /** Properties of the desired state the SDK provider would drop; undefined without a desired state (delete, read). */
  uncoveredDesired: readonly string[] | undefined;
  /** The same for the recorded properties; undefined when the record holds none (unknown, not empty). */
  uncoveredRecorded: readonly string[] | undefined;
  /** `--pin-cc-api` names this resource. */
  pinCcApi: boolean;
  /** The uncovered properties `--prefer-sdk-route` lets the SDK provider drop; absent, none. */
  preferredDrops?: readonly string[];
}

export interface Route {
  provisionedBy: ProviderKind;
  reason: RouteReason;
  /** The uncovered properties that sent it to Cloud Control. */
  properties?: readonly string[];
  /** The properties the SDK provider serving this route will not send. */
  dropped?: readonly string[];
}

/** The routing decision table, re-made on every deploy. */
export function decideRoute(facts: RouteFacts): Route {
  if (!facts.hasSdkProvider) return { provisionedBy: 'cc-api', reason: 'no-sdk-provider' };
  const uncovered = facts.uncoveredDesired ?? [];
  if (facts.exemption === 'cc-cannot-manage') {
    return { provisionedBy: 'sdk', reason: 'cc-cannot-manage', ...withDropped(uncovered) };
  }
  if (facts.recordedBy === 'cc-api') {
    // Both bags must be clean: with only the desired one clean, the deploy that removes
    // a dropped property would go to the SDK provider, which cannot unset it.
    const returning =
      facts.exemption === 'sdk-coverage' &&
      !facts.pinCcApi &&
      facts.uncoveredDesired?.length === 0 &&
      facts.uncoveredRecorded?.length === 0;
    return returning
      ? { provisionedBy: 'sdk', reason: 'returning-to-sdk' }
      : { provisionedBy: 'cc-api', reason: 'sticky' };
  }
  if (uncovered.length > 0) {
    const preferred = new Set(facts.preferredDrops ?? []);
    const forcing = uncovered.filter((property) => !preferred.has(property));
    if (forcing.length === 0) return { provisionedBy: 'sdk', reason: 'prefer-sdk-route', dropped: uncovered };
    return { provisionedBy: 'cc-api', reason: 'uncovered-property', properties: forcing };
  }
  return { provisionedBy: 'sdk', reason: 'sdk-provider' };
}

function withDropped(dropped: readonly string[]): Pick<Route, 'dropped'> {
  return dropped.length > 0 ? { dropped } : {};
}

/** Of `uncovered`, the properties `--prefer-sdk-route` names for `type`. */
export function preferredDrops(
  prefer: PreferSdkRoute | undefined,
  type: string,
  uncovered: readonly string[],
): string[] {
  if (prefer === undefined) return [];
  if (prefer === 'all') return [...uncovered];
  return uncovered.filter((property) =>
    prefer.some((entry) => entry.type === type && entry.property === property),
  );
}

/**
 * What the record holds after the SDK provider dropped `dropped` (spec 002): only what it
 * sent, except a create-only drop, which stays so a redeploy under the same flag sees no
 * change (and one without it is refused with CREATE_ONLY_DROP_NEEDS_REPLACEMENT).
 */
export function asSent(
  type: string,
  properties: JsonObject,
  dropped: readonly string[] | undefined,
): JsonObject {
  if (!dropped || dropped.length === 0) return properties;
  const kept = new Set(createOnlyDrops(type, dropped));
  const removed = new Set(dropped.filter((property) => !kept.has(property)));
  return Object.fromEntries(Object.entries(properties).filter(([key]) => !removed.has(key)));
}

/** Of the properties an SDK provider drops, the create-only ones: kept in the record, never sent. */
export function createOnlyDrops(type: string, dropped: readonly string[] | undefined): string[] {
  return (dropped ?? []).filter((property) => replacementOf(type, property) === 'yes');
}

/** A route as the engine's router answers it: without a reason for a type the engine serves itself. */
export type DecidedRoute = Pick<Route, 'provisionedBy'> & Partial<Omit<Route, 'provisionedBy'>>;

/** The `cdkd diff` routing annotation, or undefined when routing is unremarkable. */
export function routeAnnotation(route: DecidedRoute, recordedBy?: ProviderKind): string | undefined {
  switch (route.reason) {
    case 'uncovered-property':
      return `[via CC API: ${route.properties!.join(', ')}]`;
    case 'sticky':
      return '[via CC API: sticky]';
    case 'returning-to-sdk':
      // No "via CC API:" prefix: the resource is leaving Cloud Control.
      return '[returning to SDK provider]';
    case 'cc-cannot-manage':
      return recordedBy === 'cc-api'
        ? '[moving to SDK provider: Cloud Control cannot manage this type]'
        : undefined;
    case 'prefer-sdk-route':
      return `[SDK provider drops: ${route.dropped!.join(', ')}]`;
    default:
      return undefined;
  }
}

/** The deploy's line for an update that moves a resource between layers; undefined when it stays. */
export function moveLine(
  route: DecidedRoute,
  recordedBy: ProviderKind | undefined,
  type: string,
): string | undefined {
  if (recordedBy === undefined || recordedBy === route.provisionedBy) return undefined;
  switch (route.reason) {
    case 'uncovered-property':
      return `moved to Cloud Control in place: the SDK provider does not send ${route.properties!.join(', ')}`;
    case 'returning-to-sdk':
      return 'returning to SDK provider: it covers every property this resource uses';
    case 'cc-cannot-manage':
      return `moved to the SDK provider for correctness: Cloud Control cannot manage ${type} correctly`;
    default:
      return undefined;
  }
}

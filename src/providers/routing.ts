import type { ProviderKind } from './provider.js';

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
  | 'sticky'
  | 'returning-to-sdk'
  | 'cc-cannot-manage';

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
}

export interface Route {
  provisionedBy: ProviderKind;
  reason: RouteReason;
  /** The uncovered properties that sent it to Cloud Control. */
  properties?: readonly string[];
}

/** The routing decision table, re-made on every deploy. */
export function decideRoute(facts: RouteFacts): Route {
  if (!facts.hasSdkProvider) return { provisionedBy: 'cc-api', reason: 'no-sdk-provider' };
  if (facts.exemption === 'cc-cannot-manage') return { provisionedBy: 'sdk', reason: 'cc-cannot-manage' };
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
  if (facts.uncoveredDesired && facts.uncoveredDesired.length > 0) {
    return { provisionedBy: 'cc-api', reason: 'uncovered-property', properties: facts.uncoveredDesired };
  }
  return { provisionedBy: 'sdk', reason: 'sdk-provider' };
}

/** The `cdkd diff` routing annotation, or undefined when routing is unremarkable. */
export function routeAnnotation(route: Route, recordedBy?: ProviderKind): string | undefined {
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
    default:
      return undefined;
  }
}

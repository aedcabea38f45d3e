import { CdkdError } from '../errors.js';
import { isKnownType, primaryIdentifierOf } from '../plan/resource-schemas.js';
import { unhandledReason, type UnhandledReason } from './handled-types.js';
import type { JsonObject, Provider, ProviderKind } from './provider.js';
import {
  decideRoute,
  preferredDrops,
  type PreferSdkRoute,
  type Route,
  type StickyExemption,
} from './routing.js';

interface SdkRegistration {
  provider: Provider;
  exemption?: StickyExemption;
}

export interface RouteRequest {
  type: string;
  /** The desired properties; absent for a delete or a read. */
  properties?: JsonObject;
  /** The record's applied properties; absent when there is no record or it holds none. */
  recordedProperties?: JsonObject;
  recordedBy?: ProviderKind;
  /** `--pin-cc-api` names this resource (the engine resolves logical ids per stack). */
  pinCcApi?: boolean;
  /** `--prefer-sdk-route` as the run gave it. */
  preferSdkRoute?: PreferSdkRoute;
}

export interface RoutedProvider extends Route {
  provider: Provider;
}

/**
 * Which provider serves each type: the SDK provider registered for it, else Cloud
 * Control. The choice is recorded per resource as `provisionedBy` and is sticky
 * (spec 003, "Routing between the SDK provider and Cloud Control").
 */
export class ProviderRegistry {
  private readonly types = new Map<string, SdkRegistration>();
  /** Providers for an open family of types (`Custom::*`), asked when no exact type matches. */
  private readonly families: Provider[] = [];

  constructor(readonly cloudControl: Provider) {}

  /** `registry.registerSdk('AWS::SQS::Queue', sqsProvider)`; the exemption is per type. */
  registerSdk(type: string, provider: Provider, options: { exemption?: StickyExemption } = {}): this {
    this.types.set(type, { provider, ...options });
    return this;
  }

  /** A provider for every type its `handles` accepts, with no Cloud Control fallback. */
  registerSdkFamily(provider: Provider): this {
    this.families.push(provider);
    return this;
  }

  unhandledReason(type: string): UnhandledReason | undefined {
    return unhandledReason(type, {
      hasSdkProvider: this.has(type),
      known: isKnownType(type),
      primaryIdentifier: primaryIdentifierOf(type),
    });
  }

  canHandle(type: string): boolean {
    return this.unhandledReason(type) === undefined;
  }

  /** The provider for a create or update, re-decided on every deploy. */
  route(request: RouteRequest): RoutedProvider {
    const registration = this.registration(request.type);
    const uncovered = (properties: JsonObject | undefined): string[] | undefined =>
      properties === undefined
        ? undefined
        : (registration?.provider.uncoveredProperties?.(request.type, properties) ?? []);
    const uncoveredDesired = uncovered(request.properties);
    const route = decideRoute({
      hasSdkProvider: registration !== undefined,
      exemption: registration?.exemption,
      recordedBy: request.recordedBy,
      uncoveredDesired,
      uncoveredRecorded: uncovered(request.recordedProperties),
      pinCcApi: request.pinCcApi ?? false,
      preferredDrops: preferredDrops(request.preferSdkRoute, request.type, uncoveredDesired ?? []),
    });
    return { ...route, provider: this.providerFor(request.type, route.provisionedBy) };
  }

  /** The properties of `properties` the type's SDK provider would not send (none without one). */
  uncoveredBySdk(type: string, properties: JsonObject): string[] {
    return this.registration(type)?.provider.uncoveredProperties?.(type, properties) ?? [];
  }

  /** The provider that made a recorded resource (deletes and reads follow the record). */
  providerFor(type: string, provisionedBy: ProviderKind): Provider {
    if (provisionedBy === 'cc-api') return this.cloudControl;
    const registration = this.registration(type);
    if (!registration) {
      throw new CdkdError('SDK_PROVIDER_MISSING', `No SDK provider is registered for ${type}.`, {
        hint: 'This cdkd build cannot manage a resource recorded as provisionedBy: sdk of this type; use the cdkd version that deployed it.',
      });
    }
    return registration.provider;
  }

  /** For the planner: whether the provider that would apply the change can do it in place. */
  providerCanUpdate(
    type: string,
    changedProperties: readonly string[],
    provisionedBy?: ProviderKind,
  ): boolean {
    // A record naming a provider this build lacks is refused at apply time, not here.
    const kind =
      provisionedBy === 'sdk' || (provisionedBy === undefined && this.has(type)) ? 'sdk' : 'cc-api';
    if (kind === 'sdk' && !this.has(type)) return this.cloudControl.canUpdateInPlace(type, changedProperties);
    return this.providerFor(type, kind).canUpdateInPlace(type, changedProperties);
  }

  private registration(type: string): SdkRegistration | undefined {
    const exact = this.types.get(type);
    if (exact) return exact;
    const provider = this.families.find((candidate) => candidate.handles(type));
    return provider ? { provider } : undefined;
  }

  private has(type: string): boolean {
    return this.registration(type) !== undefined;
  }
}

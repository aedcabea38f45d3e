import { CdkdError } from '../errors.js';
import { isKnownType, primaryIdentifierOf } from '../resource-types/index.js';
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

/** Registers the providers of a group of types on the registry it is given (`registerSqs`, ...). */
export type SdkRegistrar = (registry: ProviderRegistry) => unknown;

/**
 * Providers whose modules (and their AWS SDK clients) load on first use: the types are known
 * up front, so which types have an SDK provider is decided without loading anything.
 */
interface LazyGroup {
  /** The exact types registered for it; none for a family. */
  types: readonly string[];
  handles(type: string): boolean;
  load(): Promise<SdkRegistrar>;
  loading?: Promise<void>;
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
  /** Types registered lazily and not loaded yet (an eager registration of a type takes precedence). */
  private readonly lazyTypes = new Map<string, LazyGroup>();
  /** Lazy families, asked after the loaded ones, in registration order. */
  private readonly lazyFamilies: LazyGroup[] = [];

  constructor(readonly cloudControl: Provider) {}

  /** `registry.registerSdk('AWS::SQS::Queue', sqsProvider)`; the exemption is per type. */
  registerSdk(type: string, provider: Provider, options: { exemption?: StickyExemption } = {}): this {
    this.types.set(type, { provider, ...options });
    this.lazyTypes.delete(type);
    return this;
  }

  /** A provider for every type its `handles` accepts, with no Cloud Control fallback. */
  registerSdkFamily(provider: Provider): this {
    this.families.push(provider);
    return this;
  }

  /**
   * `types` get an SDK provider that `load` imports on first use (`load` resolves to the
   * group's registrar, e.g. `registerSqs`). Until `load(types)` has run for a type, routing
   * it throws: the engine loads before it routes.
   */
  registerSdkLazily(types: readonly string[], load: () => Promise<SdkRegistrar>): this {
    const group: LazyGroup = { types, handles: (type) => types.includes(type), load };
    for (const type of types) if (!this.types.has(type)) this.lazyTypes.set(type, group);
    return this;
  }

  /** A family (`handles` decides its types without loading it) whose provider `load` imports on first use. */
  registerSdkFamilyLazily(handles: (type: string) => boolean, load: () => Promise<SdkRegistrar>): this {
    this.lazyFamilies.push({ types: [], handles, load });
    return this;
  }

  /** Loads the lazily registered providers of `types` (each group once); the rest are ready already. */
  async load(types: Iterable<string>): Promise<void> {
    const groups = new Set<LazyGroup>();
    for (const type of types) {
      const group = this.lazyGroupFor(type);
      if (group) groups.add(group);
    }
    await Promise.all([...groups].map((group) => (group.loading ??= this.loadGroup(group))));
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

  /** The type's SDK provider, loaded (`load`) first; undefined for a type without one. */
  sdkProviderFor(type: string): Provider | undefined {
    return this.registration(type)?.provider;
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
    if (provider) return { provider };
    if (this.lazyGroupFor(type)) {
      throw new Error(`The SDK provider for ${type} was used before ProviderRegistry.load loaded it.`);
    }
    return undefined;
  }

  private has(type: string): boolean {
    return (
      this.types.has(type) ||
      this.families.some((candidate) => candidate.handles(type)) ||
      this.lazyGroupFor(type) !== undefined
    );
  }

  private lazyGroupFor(type: string): LazyGroup | undefined {
    return this.lazyTypes.get(type) ?? this.lazyFamilies.find((group) => group.handles(type));
  }

  /** Registers what the group's registrar registers, except types registered eagerly meanwhile. */
  private async loadGroup(group: LazyGroup): Promise<void> {
    const loaded = new ProviderRegistry(this.cloudControl);
    (await group.load())(loaded);
    const registered = [...loaded.types.keys()].sort();
    if (registered.join() !== [...group.types].sort().join()) {
      // A programming error: the static list and the registrar disagree.
      throw new Error(
        `SDK providers registered for ${registered.join(', ')}, listed for ${group.types.join(', ')}.`,
      );
    }
    for (const [type, registration] of loaded.types) {
      if (this.lazyTypes.get(type) !== group) continue;
      this.types.set(type, registration);
      this.lazyTypes.delete(type);
    }
    const family = this.lazyFamilies.indexOf(group);
    if (family >= 0) {
      this.families.push(...loaded.families);
      this.lazyFamilies.splice(family, 1);
    }
  }
}

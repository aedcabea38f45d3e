import { ownReplacementRule, replacementOf } from '../resource-types/index.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  Provider,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from './provider.js';

/**
 * What an SDK provider declares about the type it serves, once: the skeleton turns it into
 * `kind`, `handles`, `canUpdateInPlace`, `uncoveredProperties` and `writeOnlyProperties`.
 */
export interface ProviderDescription {
  type: string;
  /** The top-level properties the provider sends; any other routes the resource through Cloud Control. */
  covered: ReadonlySet<string> | readonly string[];
  /** Properties the provider cannot send in the shape given although it covers them (a bucket configuration it cannot map). */
  alsoUncovered?(properties: JsonObject): string[];
  /**
   * Which changes need a new resource: `schema` (the default) where the schema says a change
   * replaces, `schema-and-own-rules` where cdkd's own replacement rules say so too, or the
   * create-only properties listed (the API's own, where it differs from the schema).
   */
  replaces?: 'schema' | 'schema-and-own-rules' | ReadonlySet<string> | readonly string[];
  /** Properties AWS accepts but never returns on a read, as dotted paths (`*` for any element). */
  writeOnly?: readonly string[];
}

/** The skeleton every SDK provider shares; a provider adds its calls (create, update, delete, read ...). */
export abstract class SdkProvider implements Provider {
  readonly kind = 'sdk' as const;
  abstract readonly description: ProviderDescription;

  handles(type: string): boolean {
    return type === this.description.type;
  }

  canUpdateInPlace(type: string, changedProperties: readonly string[]): boolean {
    const replaces = this.description.replaces ?? 'schema';
    if (replaces === 'schema') return !changedProperties.some((p) => replacementOf(type, p) === 'yes');
    if (replaces === 'schema-and-own-rules') {
      return !changedProperties.some(
        (p) => ownReplacementRule(type, p) === 'replace' || replacementOf(type, p) === 'yes',
      );
    }
    return !changedProperties.some((p) => includes(replaces, p));
  }

  uncoveredProperties(_type: string, properties: JsonObject): string[] {
    const { covered, alsoUncovered } = this.description;
    const outside = Object.keys(properties).filter((name) => !includes(covered, name));
    return alsoUncovered ? [...outside, ...alsoUncovered(properties)] : outside;
  }

  writeOnlyProperties(): readonly string[] {
    return this.description.writeOnly ?? [];
  }

  abstract create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult>;
  abstract update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult>;
  abstract delete(request: DeleteRequest, context: ProviderContext): Promise<void>;
  abstract read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined>;
}

function includes(names: ReadonlySet<string> | readonly string[], name: string): boolean {
  return names instanceof Set ? names.has(name) : (names as readonly string[]).includes(name);
}

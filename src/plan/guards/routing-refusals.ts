import { isDeepStrictEqual } from 'node:util';
import { CdkdError } from '../../errors.js';
import { replacementOf } from '../../resource-types/index.js';

/** One resource as the routing refusals see it: its record, what the template wants and its route. */
export interface RoutedResource {
  logicalId: string;
  type: string;
  /** The planned operation's kind. */
  kind: 'create' | 'update' | 'replace' | 'delete' | 'no-op';
  recordedBy: 'sdk' | 'cc-api' | undefined;
  recordedProperties: Record<string, unknown>;
  desiredProperties: Record<string, unknown>;
  /** The record's properties its type's SDK provider does not send. */
  uncoveredRecorded: readonly string[];
  route: { provisionedBy: 'sdk' | 'cc-api'; dropped?: readonly string[] | undefined };
}

/**
 * Spec 002: a create-only property an earlier `--prefer-sdk-route` deploy let the SDK provider
 * drop stays in the record, though AWS never held it. A deploy whose route no longer drops it
 * would need a replacement to set it; these are the properties that would.
 */
export function claimedCreateOnlyDrops(resource: RoutedResource): string[] {
  if (resource.recordedBy !== 'sdk') return [];
  if (resource.kind !== 'update' && resource.kind !== 'no-op') return [];
  const dropped = new Set(resource.route.dropped ?? []);
  return resource.uncoveredRecorded.filter(
    (property) =>
      replacementOf(resource.type, property) === 'yes' &&
      !dropped.has(property) &&
      isDeepStrictEqual(resource.desiredProperties[property], resource.recordedProperties[property]),
  );
}

/** Refuses the deploy when any resource would be replaced for a create-only drop its record claims. */
export function refuseCreateOnlyDropReplacements(resources: readonly RoutedResource[]): void {
  const refused = resources.flatMap((resource) => {
    const properties = claimedCreateOnlyDrops(resource);
    return properties.length > 0 ? [{ resource, properties }] : [];
  });
  if (refused.length === 0) return;
  const named = refused.map(
    ({ resource, properties }) => `${resource.logicalId} (${resource.type}): ${properties.join(', ')}`,
  );
  const flags = [
    ...new Set(
      refused.flatMap(({ resource, properties }) =>
        properties.map((property) => `--prefer-sdk-route ${resource.type}:${property}`),
      ),
    ),
  ];
  const ids = refused.map(({ resource }) => `--recreate-via-cc-api ${resource.logicalId}`);
  throw new CdkdError(
    'CREATE_ONLY_DROP_NEEDS_REPLACEMENT',
    `The record claims a create-only property an earlier --prefer-sdk-route deploy (or --recreate-via-sdk-provider) left unsent, which AWS never held; setting it now needs a replacement cdkd will not do on its own: ${named.join('; ')}.`,
    {
      hint: `Keep the SDK route with ${flags.join(' ')}, or create the resource again with the property: ${ids.join(' ')} (or --replace).`,
    },
  );
}

/**
 * Spec 002: an `sdk` record auto-routed to Cloud Control is updated there by its physical id,
 * which works only where that id is the type's Cloud Control identifier. Elsewhere the update
 * could not reach the resource: refuse before anything is touched, naming the way through.
 */
export function refuseUnaddressableAutoRoutes(
  resources: readonly RoutedResource[],
  sdkIdIsCcIdentifier: (type: string) => boolean,
): void {
  const refused = resources.filter(
    (resource) =>
      resource.kind === 'update' &&
      resource.recordedBy === 'sdk' &&
      resource.route.provisionedBy === 'cc-api' &&
      !sdkIdIsCcIdentifier(resource.type),
  );
  if (refused.length === 0) return;
  const named = refused.map((resource) => `${resource.logicalId} (${resource.type})`).join(', ');
  throw new CdkdError(
    'CC_IDENTIFIER_UNVERIFIED',
    `A property the SDK provider does not send moves ${named} to Cloud Control, but cdkd has not verified that the SDK provider's physical id addresses this type in Cloud Control, so the update could not be applied in place.`,
    {
      hint: `Create the resource again through Cloud Control: cdkd deploy --recreate-via-cc-api ${refused.map((r) => r.logicalId).join(' --recreate-via-cc-api ')}; or keep the SDK route and leave the property unsent: --prefer-sdk-route.`,
    },
  );
}

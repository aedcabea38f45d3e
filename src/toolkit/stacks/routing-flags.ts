import type { CheckedStack, NestedStack } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import { schemaFor } from '../../resource-types/index.js';
import type { RoutingOptions } from '../../providers/index.js';

/** `--prefer-sdk-route` (`true` without a value, else its `Type:Property` values) and `--pin-cc-api`. */
export interface RoutingFlags {
  preferSdkRoute?: true | readonly string[];
  pinCcApi?: readonly string[];
}

/** The flags as the engine takes them; a `Type:Property` the schema index does not know is refused. */
export function routingOptions(flags: RoutingFlags): RoutingOptions {
  const prefer = flags.preferSdkRoute;
  return {
    ...(prefer === true && { preferSdkRoute: 'all' as const }),
    ...(Array.isArray(prefer) && { preferSdkRoute: prefer.map(typeProperty) }),
    ...(flags.pinCcApi && flags.pinCcApi.length > 0 && { pinCcApi: new Set(flags.pinCcApi) }),
  };
}

function typeProperty(value: string): { type: string; property: string } {
  const split = value.lastIndexOf(':');
  const type = split > 0 ? value.slice(0, split) : '';
  const property = value.slice(split + 1);
  const schema = type.includes('::') ? schemaFor(type) : undefined;
  if (!schema || !schema.properties.includes(property)) {
    throw new CdkdError(
      'PREFER_SDK_ROUTE_INVALID',
      `--prefer-sdk-route ${value} does not name a resource type and one of its properties.`,
      {
        hint: 'Give TYPE:PROPERTY (--prefer-sdk-route AWS::S3::Bucket:ObjectLockEnabled), or the flag alone after the stack names to keep the SDK route for every property.',
      },
    );
  }
  return { type, property };
}

/**
 * Spec 002: a `--pin-cc-api` id in no stack of the run is an error, raised before any stack
 * deploys. The check is run-wide: under --all an id rightly belongs to one stack only.
 */
export function refuseUnknownPinnedIds(
  pinned: readonly string[] | undefined,
  stacks: readonly CheckedStack[],
): void {
  if (!pinned || pinned.length === 0) return;
  const known = runLogicalIds(stacks);
  const unknown = [...new Set(pinned)].filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  throw new CdkdError(
    'PIN_CC_API_UNKNOWN_ID',
    `--pin-cc-api names ${unknown.map(shownId).join(', ')}, which no stack of this run declares; nothing was changed.`,
    {
      hint: `Check the logical id${unknown.length > 1 ? 's' : ''} (cdkd synth prints each stack's template), or select the stack that declares it.`,
    },
  );
}

/** Every logical id a stack of the run declares, nested stacks included: what a flag naming an id may name. */
export function runLogicalIds(stacks: readonly CheckedStack[]): Set<string> {
  return new Set(
    stacks.flatMap(({ stack, nested }) => [...resourceIds(stack.template), ...nested.flatMap(nestedIds)]),
  );
}

function resourceIds(template: { Resources?: unknown }): string[] {
  return Object.keys((template.Resources ?? {}) as Record<string, unknown>);
}

function nestedIds(stack: NestedStack): string[] {
  return [...resourceIds(stack.template), ...stack.nested.flatMap(nestedIds)];
}

/** A logical id as an error names it: an empty one (`--flag ''`) would otherwise vanish from the sentence. */
export function shownId(id: string): string {
  return id === '' ? "''" : id;
}

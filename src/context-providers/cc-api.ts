import { CloudControlClient, GetResourceCommand, ListResourcesCommand } from '@aws-sdk/client-cloudcontrol';
import type { ContextQuery } from '../assembly/index.js';
import { LookupError, type Provider } from './provider.js';

interface CcApiQuery {
  typeName: string;
  exactIdentifier?: string;
  propertyMatch?: Record<string, unknown>;
  propertiesToReturn: string[];
  expectedMatchCount?: 'at-least-one' | 'at-most-one' | 'exactly-one' | 'any';
}

interface Found {
  identifier: string;
  properties: Record<string, unknown>;
}

/**
 * Resources of any type through Cloud Control, by identifier or by property values: a
 * list of `{ <property path>: value, Identifier }`. None found is notFound, so an app
 * that supplied a dummy value may go on without it.
 */
export const ccApi: Provider = async (client, query) => {
  const wanted = query as ContextQuery & CcApiQuery;
  if (wanted.exactIdentifier && wanted.propertyMatch) {
    throw new LookupError(
      `Provider protocol error: specify either exactIdentifier or propertyMatch, but not both (got ${JSON.stringify(query)})`,
    );
  }
  const cc = await client(CloudControlClient);
  let found: Found[];
  if (wanted.exactIdentifier) {
    try {
      const result = await cc.send(
        new GetResourceCommand({ TypeName: wanted.typeName, Identifier: wanted.exactIdentifier }),
      );
      found = [parsed(result.ResourceDescription?.Identifier, result.ResourceDescription?.Properties)];
    } catch (error) {
      if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
      return {
        notFound: `No resource of type ${wanted.typeName} with identifier: ${wanted.exactIdentifier}`,
      };
    }
  } else if (wanted.propertyMatch) {
    const match = wanted.propertyMatch;
    const result = await cc.send(new ListResourcesCommand({ TypeName: wanted.typeName }));
    found = (result.ResourceDescriptions ?? [])
      .map((description) => parsed(description.Identifier, description.Properties))
      .filter((resource) =>
        Object.entries(match).every(([path, expected]) => valueAt(resource.properties, path) === expected),
      );
    const count = wanted.expectedMatchCount;
    if ((count === 'at-least-one' || count === 'exactly-one') && found.length === 0) {
      return { notFound: `Could not find any resources matching ${JSON.stringify(match)}` };
    }
    if ((count === 'at-most-one' || count === 'exactly-one') && found.length > 1) {
      throw new LookupError(
        `Found ${found.length} resources matching ${JSON.stringify(match)}; please narrow the search criteria`,
      );
    }
  } else {
    throw new LookupError(
      `Provider protocol error: neither exactIdentifier nor propertyMatch is specified in ${JSON.stringify(query)}.`,
    );
  }
  return {
    value: found.map((resource) => ({
      ...Object.fromEntries(
        wanted.propertiesToReturn.map((path) => [path, requiredValueAt(resource.properties, path)]),
      ),
      Identifier: resource.identifier,
    })),
  };
};

function parsed(identifier: string | undefined, properties: string | undefined): Found {
  return {
    identifier: identifier ?? '*MISSING*',
    properties: JSON.parse(properties ?? '{}') as Record<string, unknown>,
  };
}

/** The value at a dotted path (`Endpoint.Address`), or undefined. */
function valueAt(object: unknown, path: string): unknown {
  let current = object;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function requiredValueAt(object: Record<string, unknown>, path: string): unknown {
  const value = valueAt(object, path);
  if (value === undefined)
    throw new LookupError(`Cannot read field '${path}'. It is not found in the resource's properties.`);
  return value;
}

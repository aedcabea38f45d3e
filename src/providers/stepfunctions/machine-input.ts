import type { LoggingConfiguration, Tag, TracingConfiguration } from '@aws-sdk/client-sfn';
import type { JsonObject } from '../provider.js';
import { tagMap } from '../tags.js';

/**
 * The definition Step Functions is sent: DefinitionString with DefinitionSubstitutions
 * applied, as CloudFormation does before it calls the API (`${name}` becomes the value).
 */
export function definitionOf(properties: JsonObject): string {
  let text = typeof properties.DefinitionString === 'string' ? properties.DefinitionString : '';
  const substitutions = (properties.DefinitionSubstitutions ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(substitutions)) {
    text = text.split(`\${${name}}`).join(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return text;
}

/** The template's LoggingConfiguration in the API's shape; absent means logging off. */
export function loggingOf(properties: JsonObject): LoggingConfiguration {
  const logging = (properties.LoggingConfiguration ?? {}) as {
    Level?: string;
    IncludeExecutionData?: unknown;
    Destinations?: Array<{ CloudWatchLogsLogGroup?: { LogGroupArn?: string } }>;
  };
  return {
    level: (logging.Level ?? 'OFF') as LoggingConfiguration['level'],
    includeExecutionData: logging.IncludeExecutionData === true || logging.IncludeExecutionData === 'true',
    ...(logging.Destinations && {
      destinations: logging.Destinations.map((destination) => ({
        cloudWatchLogsLogGroup: { logGroupArn: destination.CloudWatchLogsLogGroup?.LogGroupArn },
      })),
    }),
  };
}

/** The template's TracingConfiguration in the API's shape; absent means tracing off. */
export function tracingOf(properties: JsonObject): TracingConfiguration {
  const tracing = (properties.TracingConfiguration ?? {}) as { Enabled?: unknown };
  return { enabled: tracing.Enabled === true || tracing.Enabled === 'true' };
}

/** Tags as Step Functions takes them (lower-case member names). */
export function apiTags(tags: Record<string, string>): Tag[] {
  return Object.entries(tags).map(([key, value]) => ({ key, value }));
}

/** The template's tags, plus the token tag where the create writes one. */
export function createTags(properties: JsonObject, token: Record<string, string>): Tag[] {
  return apiTags({ ...tagMap(properties.Tags), ...token });
}

/** The live LoggingConfiguration in template terms (absent when logging is off and nothing is set). */
export function templateLogging(logging: LoggingConfiguration | undefined): JsonObject | undefined {
  if (!logging) return undefined;
  return {
    Level: logging.level,
    IncludeExecutionData: logging.includeExecutionData ?? false,
    ...(logging.destinations &&
      logging.destinations.length > 0 && {
        Destinations: logging.destinations.map((destination) => ({
          CloudWatchLogsLogGroup: { LogGroupArn: destination.cloudWatchLogsLogGroup?.logGroupArn },
        })),
      }),
  };
}

import type { StackArtifact } from '../../assembly/index.js';
import { responseHeadersOf, type ResponseHeaders } from './response-headers.js';
import { functionIn, getAttOf, refOf, resourcesOf, type Resources } from '../serve/template-refs.js';

/** Where a behaviour's requests go, as far as they can be answered on this machine. */
export type LocalOrigin =
  | { kind: 's3'; id: string; bucketId: string; originPath: string; accessControlled: boolean }
  | { kind: 'function-url'; id: string; functionId: string; urlId: string; originPath: string }
  | { kind: 'http'; id: string; domain: string };

/** A CloudFront Function associated with a behaviour. */
export interface ViewerFunction {
  eventType: 'viewer-request' | 'viewer-response';
  logicalId: string;
  runtime: string;
  /** The function's code, or undefined when the template does not hold it as a string. */
  code?: string;
}

export interface LocalBehavior {
  /** Undefined for the default behaviour. */
  pathPattern?: string;
  originId: string;
  functions: ViewerFunction[];
  /** What runs on an origin-facing event (Lambda@Edge), which is not run locally. */
  edgeLambdas: string[];
  /** The response headers policy: what it does, or why it is not applied here. */
  responseHeaders?: ResponseHeaders | string;
}

export interface ErrorResponse {
  errorCode: number;
  responseCode?: number;
  responsePagePath?: string;
}

export interface LocalDistribution {
  logicalId: string;
  origins: Map<string, LocalOrigin>;
  /** CacheBehaviors in template order, then the default behaviour. */
  behaviors: LocalBehavior[];
  defaultRootObject?: string;
  errorResponses: ErrorResponse[];
}

const DISTRIBUTION = 'AWS::CloudFront::Distribution';

export function hasDistribution(stack: StackArtifact): boolean {
  return Object.values(resourcesOf(stack.template)).some((resource) => resource.Type === DISTRIBUTION);
}

/** The stack's CloudFront distributions as the local server reads them. */
export function localDistributions(stack: StackArtifact): LocalDistribution[] {
  const resources = resourcesOf(stack.template);
  return Object.entries(resources)
    .filter(([, resource]) => resource.Type === DISTRIBUTION)
    .map(([logicalId, resource]) => {
      const config = record(resource.Properties?.DistributionConfig);
      const origins = new Map(
        list(config.Origins).map((origin) => {
          const parsed = localOrigin(record(origin), resources);
          return [parsed.id, parsed] as const;
        }),
      );
      const behaviors = [
        ...list(config.CacheBehaviors).map((b) => behavior(record(b), resources)),
        behavior(record(config.DefaultCacheBehavior), resources),
      ];
      const root = config.DefaultRootObject;
      return {
        logicalId,
        origins,
        behaviors,
        ...(typeof root === 'string' && root !== '' ? { defaultRootObject: root } : {}),
        errorResponses: list(config.CustomErrorResponses).map((raw) => {
          const entry = record(raw);
          const responseCode = entry.ResponseCode === undefined ? undefined : Number(entry.ResponseCode);
          return {
            errorCode: Number(entry.ErrorCode),
            ...(responseCode !== undefined ? { responseCode } : {}),
            ...(typeof entry.ResponsePagePath === 'string'
              ? { responsePagePath: entry.ResponsePagePath }
              : {}),
          };
        }),
      };
    });
}

/** The functions a distribution runs: those behind its function URL origins. */
export function distributionFunctions(distributions: readonly LocalDistribution[]): string[] {
  const ids = new Set<string>();
  for (const distribution of distributions)
    for (const origin of distribution.origins.values())
      if (origin.kind === 'function-url') ids.add(origin.functionId);
  return [...ids];
}

/**
 * An origin by what its DomainName names: a bucket's (Regional)DomainName is an S3 origin,
 * the host part of a function URL (`FunctionUrlOrigin` splits the URL on "/") a function
 * origin; anything else is a custom origin on another domain.
 */
function localOrigin(origin: Record<string, unknown>, resources: Resources): LocalOrigin {
  const id = String(origin.Id);
  const originPath = typeof origin.OriginPath === 'string' ? origin.OriginPath : '';
  const domain = origin.DomainName;
  const att = getAttOf(domain);
  if (
    att &&
    resources[att[0]]?.Type === 'AWS::S3::Bucket' &&
    (att[1] === 'RegionalDomainName' || att[1] === 'DomainName')
  ) {
    const s3Config = record(origin.S3OriginConfig);
    const accessControlled =
      origin.OriginAccessControlId !== undefined ||
      (s3Config.OriginAccessIdentity !== undefined && s3Config.OriginAccessIdentity !== '');
    return { kind: 's3', id, bucketId: att[0], originPath, accessControlled };
  }
  const urlId = functionUrlIn(domain, resources);
  if (urlId) {
    const functionId = functionIn(resources[urlId]?.Properties?.TargetFunctionArn, resources);
    if (functionId) return { kind: 'function-url', id, functionId, urlId, originPath };
  }
  return { kind: 'http', id, domain: describeDomain(domain) };
}

/** The AWS::Lambda::Url whose `FunctionUrl` an expression reads, anywhere inside it. */
function functionUrlIn(expression: unknown, resources: Resources): string | undefined {
  const att = getAttOf(expression);
  if (att && att[1] === 'FunctionUrl' && resources[att[0]]?.Type === 'AWS::Lambda::Url') return att[0];
  if (typeof expression !== 'object' || expression === null) return undefined;
  for (const value of Object.values(expression)) {
    const found = functionUrlIn(value, resources);
    if (found) return found;
  }
  return undefined;
}

function behavior(raw: Record<string, unknown>, resources: Resources): LocalBehavior {
  const responseHeaders = responseHeadersOf(raw.ResponseHeadersPolicyId, resources);
  return {
    ...(typeof raw.PathPattern === 'string' ? { pathPattern: raw.PathPattern } : {}),
    originId: String(raw.TargetOriginId),
    functions: list(raw.FunctionAssociations).flatMap((association) => {
      const entry = record(association);
      const eventType = entry.EventType;
      if (eventType !== 'viewer-request' && eventType !== 'viewer-response') return [];
      const logicalId = getAttOf(entry.FunctionARN)?.[0] ?? refOf(entry.FunctionARN);
      const fn = logicalId ? resources[logicalId] : undefined;
      const properties = fn?.Properties ?? {};
      const runtime = record(properties.FunctionConfig).Runtime;
      return [
        {
          eventType,
          logicalId: logicalId ?? String(JSON.stringify(entry.FunctionARN)),
          runtime: typeof runtime === 'string' ? runtime : 'cloudfront-js-1.0',
          ...(typeof properties.FunctionCode === 'string' ? { code: properties.FunctionCode } : {}),
        },
      ];
    }),
    edgeLambdas: list(raw.LambdaFunctionAssociations).map((association) =>
      String(record(association).EventType),
    ),
    ...(responseHeaders !== undefined ? { responseHeaders } : {}),
  };
}

function describeDomain(domain: unknown): string {
  if (typeof domain === 'string') return domain;
  const att = getAttOf(domain);
  if (att) return `${att[0]}.${att[1]}`;
  const ref = refOf(domain);
  return ref ?? JSON.stringify(domain);
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

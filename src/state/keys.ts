import { logicalIdProblem, stackNameProblem } from '../cloudformation-names.js';
import { CdkdError } from '../errors.js';

/**
 * Where each stack's documents live in the state bucket: `{prefix}/{stack}/{region}/...`, a
 * nested stack's under `{prefix}/{parent}/{logicalId}/.../{region}/...`. The layout is
 * unambiguous because every segment is checked: a stack name never holds `/`, a logical id
 * is alphanumeric and a region always holds `-`, so no name can address another stack's
 * documents and the parsers below never read a nested key as a top-level one.
 */
export interface StackStateKeys {
  state: string;
  lock: string;
  journal: string;
  /** A run's changes to single journal entries, one object each (journal-tails.ts). */
  journalTailsPrefix: string;
  eventsPrefix: string;
  /** Where custom resource handlers answer, one object per request. */
  customResourceResponsesPrefix: string;
  /** The `Data` of custom resources that answered `NoEcho: true`, which state records only masked. */
  noEchoData: string;
  /** The last `cdkd drift`'s summary. */
  drift: string;
  /** The last successful deploy's inputs, whole; its versions are the stack's generations. */
  generation: string;
}

export const DEFAULT_STATE_PREFIX = 'cdkd';

/** A region as cdkd writes it into a key; anything else (a `/`, `..`) could leave the stack's folder. */
const REGION_SEGMENT = /^[a-z0-9][a-z0-9-]*$/;

/** `us-east-1`, `us-gov-west-1`, `cn-north-1`: what a region segment of a stored key looks like. */
const REGION = /^[a-z]{2,}(-[a-z]+)+-\d+$/;

export function stackStateKeys(prefix: string, stackName: string, region: string): StackStateKeys {
  const problem = stateNameProblem(stackName);
  if (problem !== undefined) {
    throw new CdkdError('STACK_NAME_INVALID', `Stack name "${stackName}" cannot address state: ${problem}.`, {
      hint: 'Name a stack as CloudFormation does ([A-Za-z][-A-Za-z0-9]*, at most 128 characters); a nested stack as Stack~LogicalId.',
    });
  }
  if (!REGION_SEGMENT.test(region)) {
    throw new CdkdError('REGION_INVALID', `Region "${region}" is not a region name.`, {
      hint: 'Pass a region such as us-east-1 with --region or AWS_REGION.',
    });
  }
  const base = `${normalizeStatePrefix(prefix)}/${stackName}/${region}`;
  return {
    state: `${base}/state.json`,
    lock: `${base}/lock.json`,
    journal: `${base}/rollback-journal.json`,
    journalTailsPrefix: `${base}/rollback-journal/`,
    eventsPrefix: `${base}/events/`,
    customResourceResponsesPrefix: `${base}/custom-resource-responses/`,
    noEchoData: `${base}/no-echo-data.json`,
    drift: `${base}/drift.json`,
    generation: `${base}/generation.json`,
  };
}

/**
 * Why a state name (`Stack`, or `Stack/LogicalId/...` for a nested stack) cannot be a key
 * segment, or undefined.
 */
export function stateNameProblem(stateName: string): string | undefined {
  const [top = '', ...nested] = stateName.split('/');
  const problem = stackNameProblem(top);
  if (problem !== undefined) return problem;
  const badChild = nested.find((id) => logicalIdProblem(id) !== undefined);
  return badChild === undefined
    ? undefined
    : `the nested stack's logical id "${badChild}" ${logicalIdProblem(badChild)}`;
}

/**
 * The prefix without surrounding slashes; refused (STATE_PREFIX_INVALID) when it is empty
 * or a segment is `.`, `..` or empty, which would put state outside the prefix it names.
 */
export function normalizeStatePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  const segments = trimmed.split('/');
  const bad = segments.find((segment) => segment === '' || segment === '.' || segment === '..');
  // eslint-disable-next-line no-control-regex
  if (bad !== undefined || /[\u0000-\u001f\\]/.test(trimmed)) {
    const why = trimmed === '' ? 'it is empty' : `it holds the segment "${bad ?? trimmed}"`;
    throw new CdkdError('STATE_PREFIX_INVALID', `--state-prefix "${prefix}" cannot hold state: ${why}.`, {
      hint: 'Use a plain key prefix such as cdkd or team/cdkd (no empty, "." or ".." segments).',
    });
  }
  return trimmed;
}

/** The stack and region a top-level `.../state.json` key belongs to, or undefined for any other key. */
export function parseStateKey(
  prefix: string,
  key: string,
): { stackName: string; region: string } | undefined {
  const parsed = parseAnyStateKey(prefix, key);
  return parsed && 'stackName' in parsed && !parsed.stackName.includes('/') ? parsed : undefined;
}

/**
 * Any `file` (by default `state.json`) under the prefix: a top-level stack's
 * (`{stack}/{region}`), a nested one's at any depth (`{stack}/{child}/{region}`), or a legacy
 * document that names no region (`{stack}/{file}`). Undefined for every other key.
 */
export function parseAnyStateKey(
  prefix: string,
  key: string,
  file = 'state.json',
): { stackName: string; region: string } | { legacyStackName: string } | undefined {
  const head = `${normalizeStatePrefix(prefix)}/`;
  if (!key.startsWith(head)) return undefined;
  const parts = key.slice(head.length).split('/');
  if (parts.at(-1) !== file || stackNameProblem(parts[0]!) !== undefined) return undefined;
  if (parts.length === 2) return { legacyStackName: parts[0]! };
  const region = parts.at(-2)!;
  if (parts.length < 3 || !REGION.test(region)) return undefined;
  const stackName = parts.slice(0, -2).join('/');
  return stateNameProblem(stackName) === undefined ? { stackName, region } : undefined;
}

/** True when `segment` can be a nested stack's key segment under its parent. */
export function isNestedSegment(segment: string): boolean {
  return logicalIdProblem(segment) === undefined;
}

/** Which of a stack's documents a key (or listed prefix) addresses, as an error names it. */
export type StateDocumentKind =
  'state' | 'lock' | 'journal' | 'no-echo' | 'drift' | 'generation' | 'events' | 'responses';

const DOCUMENT_SEGMENTS: Record<string, StateDocumentKind> = {
  'state.json': 'state',
  'lock.json': 'lock',
  'rollback-journal.json': 'journal',
  'rollback-journal': 'journal',
  'no-echo-data.json': 'no-echo',
  'drift.json': 'drift',
  'generation.json': 'generation',
  events: 'events',
  'custom-resource-responses': 'responses',
};

/**
 * The document a key under the prefix belongs to, and its stack: `{stack}/{region}/{document}`
 * with the stack's own segments before (a nested stack's too). Undefined for anything else
 * (a listing of the whole prefix).
 */
export function stateDocumentOf(
  prefix: string,
  key: string,
): { kind: StateDocumentKind; stack: { stackName: string; region: string } } | undefined {
  const head = `${prefix.replace(/^\/+|\/+$/g, '')}/`;
  if (!key.startsWith(head)) return undefined;
  const parts = key.slice(head.length).split('/');
  for (let at = 2; at < parts.length; at += 1) {
    const kind = DOCUMENT_SEGMENTS[parts[at]!];
    const region = parts[at - 1]!;
    const stackName = parts.slice(0, at - 1).join('/');
    if (kind && REGION.test(region) && stateNameProblem(stackName) === undefined) {
      return { kind, stack: { stackName, region } };
    }
  }
  return undefined;
}

import type { CloudAssembly } from '../../assembly/index.js';
import type { ImportCandidate, ImportChoice, ImportedResource } from '../../engine/index.js';
import { sharedWarning } from '../../engine/import/index.js';
import { CdkdError } from '../../errors.js';
import { ioQuestion } from '../../messages/index.js';
import { assetBucketName } from '../../state/bucket-names.js';
import {
  choicesFromMapping,
  mappingFromChoices,
  writeResourceMapping,
  type ResourceMapping,
} from './import-mapping.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import { warn, withoutProgress, type ToolkitIo } from '../io.js';
import { singleStackTarget, stackRequest } from '../stacks/stack-requests.js';

export interface ImportInput extends ToolkitIo {
  session: Session;
  assembly: CloudAssembly;
  /** The stack's name, display path or a pattern matching one stack. */
  stack: string;
  /** `--resource <logicalId>=<physicalId>` as given; empty: offer what the template's names find. */
  resources: readonly string[];
  /** `--resource-mapping` / `--resource-mapping-inline`: the resources to adopt, by identifier properties. */
  mapping?: ResourceMapping;
  /** `--record-resource-mapping FILE`: write the chosen resources as a mapping there, and import nothing. */
  recordMappingTo?: string;
  /** --force: adopt a resource another cdkd stack manages too (warned about, never cdkd's own buckets). */
  force?: boolean;
  /** The first SIGINT/SIGTERM: the read in flight ends, nothing is recorded. */
  signal?: AbortSignal;
}

export interface ImportResult {
  stackName: string;
  imported: ImportedResource[];
  /** True when no --resource was given and the template's names found nothing AWS holds. */
  nothingFound: boolean;
  /** With `recordMappingTo`: the mapping written, nothing imported. */
  recorded?: ResourceMapping;
}

/** `cdkd import <stack>`: adopts existing AWS resources as the stack's template resources. */
export async function importResources(input: ImportInput): Promise<ImportResult> {
  const { stack, target, session } = await singleStackTarget(input.session, input.assembly, input.stack);
  // Import reads and records; it publishes nothing, so asset references only need to name the bucket.
  const request = stackRequest(stack, [], target, assetBucketName(target.accountId, target.region), {});
  const engine = await openEngine(session, {
    io: withoutProgress(input.io),
    command: input.command,
    regions: [target.region],
  });
  const types = templateTypes(stack.template.Resources ?? {});
  if (input.mapping && input.resources.length > 0) throw mappingConflict();
  let choices: ImportChoice[] = input.mapping
    ? choicesFromMapping(input.mapping, types)
    : input.resources.map(parseResourceFlag);
  const nothingFound =
    choices.length === 0 &&
    (choices = await chooseCandidates(input, await engine.importCandidates(request))).length === 0;
  if (input.recordMappingTo !== undefined) {
    const recorded = mappingFromChoices(choices, types);
    writeResourceMapping(input.recordMappingTo, recorded);
    return { stackName: stack.stackName, imported: [], nothingFound, recorded };
  }
  if (choices.length === 0) return { stackName: stack.stackName, imported: [], nothingFound };
  const imported = await engine.importResources(request, choices, {
    force: input.force === true,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  for (const resource of imported) {
    if (resource.sharedWith)
      warn(input, sharedWarning(stack.stackName, resource.logicalId, resource.sharedWith));
  }
  return { stackName: stack.stackName, imported, nothingFound: false };
}

/** Asks about each match the template's names found (CDKD_Q5100): the ones answered yes are imported. */
async function chooseCandidates(
  input: ImportInput,
  candidates: readonly ImportCandidate[],
): Promise<ImportCandidate[]> {
  const chosen: ImportCandidate[] = [];
  for (const candidate of candidates) {
    const text = `Import ${candidate.physicalId} as ${candidate.logicalId} (${candidate.type})?`;
    if (await input.io.ask(ioQuestion(input.command, 'CDKD_Q5100', text, candidate, false)))
      chosen.push(candidate);
  }
  return chosen;
}

function templateTypes(resources: Readonly<Record<string, { Type: string }>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(resources).map(([logicalId, resource]) => [logicalId, resource.Type]),
  );
}

export function mappingConflict(): CdkdError {
  return new CdkdError(
    'IMPORT_FLAGS_CONFLICT',
    'Give the resources to import one way: --resource, --resource-mapping or --resource-mapping-inline.',
    { hint: 'Put every resource in the mapping, or name each with --resource <logicalId>=<physicalId>.' },
  );
}

/** `--resource MyBucket=my-bucket`: the physical id may itself hold `=`, so the first one splits. */
export function parseResourceFlag(raw: string): ImportChoice {
  const equals = raw.indexOf('=');
  if (equals <= 0 || equals === raw.length - 1) {
    throw new CdkdError('IMPORT_RESOURCE_SYNTAX', `--resource ${raw}: expected <logicalId>=<physicalId>.`, {
      hint: 'For example: --resource MyBucket=my-existing-bucket',
    });
  }
  return { logicalId: raw.slice(0, equals).trim(), physicalId: raw.slice(equals + 1).trim() };
}

import { CdkdError, messageOf } from '../../errors.js';
import { throwIfInterrupted } from '../../interrupted.js';
import { propertyHash, refuseUnsupportedTypes } from '../../plan/index.js';
import type { ProviderContext } from '../../providers/index.js';
import type { ImportMark, JournalDocument, ResourceRecord } from '../../state/index.js';
import { FAIL_FAST_SCHEDULE } from '../../state/lock-schedule.js';
import type { PreparedTemplate } from '../../template/index.js';
import { deployableResources, importedNames, planningProperties } from '../planning/index.js';
import { stackProviderContext, type EngineContext } from '../engine-context.js';
import type { ExportIndex } from '../export-index.js';
import {
  holdersElsewhere,
  refuseCdkdBucket,
  refuseDuplicateResources,
  refuseHeldElsewhere,
  refuseIdShape,
  refuseRecordedInStack,
  type ImportHolder,
  type WantedImport,
} from './import-checks.js';
import { importedProperties, physicalIdForName, templateNameMismatch } from './import-rules.js';
import { prepareRequest } from '../planning/index.js';
import { routeLoaded, type ProviderRouter } from '../../provider-calls/index.js';
import type { StackRequest } from '../stack-request.js';
import { StackState } from '../../stack-state/index.js';
import { stateResolver } from '../planning/index.js';

/** One template resource to adopt, and the AWS resource it is. */
export interface ImportChoice {
  logicalId: string;
  physicalId: string;
}

export interface ImportCandidate extends ImportChoice {
  type: string;
}

export interface ImportedResource extends ImportCandidate {
  /** Template properties AWS holds another value for: the next deploy updates them. */
  differing: string[];
  /** Under --force, the other stacks' records that also manage it. */
  sharedWith?: ImportHolder[];
}

export interface ImportOptions {
  /** Adopt a resource another cdkd stack manages too (never cdkd's own buckets). */
  force?: boolean;
  /** The first SIGINT/SIGTERM: no resource is read or recorded after it. */
  signal?: AbortSignal;
}

/** What an import reads the template and AWS with. */
interface ImportSetup {
  state: StackState;
  prepared: PreparedTemplate;
  masked: PreparedTemplate;
  deployable: Set<string>;
  context: ProviderContext;
  router: ProviderRouter;
  exports: ExportIndex;
}

/**
 * The template resources not in state whose explicit name AWS already holds: what
 * `cdkd import` without --resource offers (as `cdk import` asks). Reads only.
 */
export async function importCandidates(
  engine: EngineContext,
  request: StackRequest,
): Promise<ImportCandidate[]> {
  const setup = await openSetup(engine, request, await StackState.open(engine.backend.store, refOf(request)));
  const router = setup.router;
  const candidates: ImportCandidate[] = [];
  for (const logicalId of setup.deployable) {
    if (setup.state.record(logicalId)) continue;
    const type = setup.prepared.template.resources.get(logicalId)!.type;
    if (!router.canHandle(type)) continue;
    const desired = evaluate(setup, logicalId).desired;
    const physicalId = physicalIdForName(type, desired, request);
    if (physicalId === undefined) continue;
    const { provider } = await routeLoaded(router, { type, properties: desired });
    const live = await engine.retry(logicalId, () =>
      provider.read({ logicalId, type, physicalId, properties: desired }, setup.context),
    );
    if (live) candidates.push({ logicalId, type, physicalId });
  }
  return candidates;
}

/**
 * `cdkd import`: reads each chosen resource live through its provider and records it as
 * the stack's (properties, attributes, creation identity). Refused before anything is read:
 * an id of the wrong shape, cdkd's own buckets, one resource under two logical ids, and one
 * another stack under the state prefix manages (unless --force). Import marks go to the
 * journal before state (spec 001), and nothing is recorded when the journal cannot be read
 * or written. Fails fast on a held lock (spec 003).
 */
export async function importStack(
  engine: EngineContext,
  request: StackRequest,
  choices: readonly ImportChoice[],
  options: ImportOptions = {},
): Promise<ImportedResource[]> {
  const ref = refOf(request);
  const { signal } = options;
  const lock = await engine.backend.locks.acquire(ref, {
    operation: 'import',
    schedule: FAIL_FAST_SCHEDULE,
    ...(signal ? { signal } : {}),
  });
  const stopped = 'while reading the resources to import; nothing was recorded';
  try {
    const state = await StackState.open(engine.backend.store, ref);
    const setup = await openSetup(engine, request, state);
    const byId = checkChoices(request.stackName, setup, choices);
    const router = setup.router;
    const template = setup.prepared.template;
    const wanted = new Map<string, WantedImport>(
      [...byId].map(([logicalId, physicalId]) => [
        logicalId,
        { logicalId, physicalId, type: template.resources.get(logicalId)!.type, region: request.region },
      ]),
    );
    refuseUnsupportedTypes([...wanted.values()], (type) => router.canHandle(type));
    refuseDuplicateResources(request.stackName, [...wanted.values()]);
    const own = { stateBucket: engine.backend.bucket, accountId: request.accountId };
    for (const one of wanted.values()) {
      refuseCdkdBucket(request.stackName, one, own);
      refuseRecordedInStack(request.stackName, state.document, one);
    }
    const shared = refuseHeldElsewhere(
      request.stackName,
      await holdersElsewhere(engine, ref, [...wanted.values()]),
      options.force === true,
    );
    const order = setup.prepared
      .dependencyGraph()
      .topologicalOrder()
      .filter((id) => wanted.has(id));
    const imported: ImportedResource[] = [];
    const records = new Map<string, ResourceRecord>();
    for (const logicalId of order) {
      throwIfInterrupted(signal, stopped);
      const one = wanted.get(logicalId)!;
      const { record, differing } = await readForImport(engine, setup, one, request.accountId);
      // Later resources may read this one: they resolve against it, though nothing is saved yet.
      state.document.resources[logicalId] = record;
      records.set(logicalId, record);
      const sharedWith = shared.get(logicalId);
      imported.push({
        logicalId,
        type: record.type,
        physicalId: one.physicalId,
        differing,
        ...(sharedWith && { sharedWith }),
      });
    }
    throwIfInterrupted(signal, stopped);
    await markJournal(engine, ref, request.stackName, records);
    await state.save();
    await state.flush();
    return imported;
  } catch (error) {
    throw await lock.releaseAfter(error);
  } finally {
    await lock.release();
  }
}

function refOf(request: StackRequest) {
  return { stackName: request.stateName, region: request.region };
}

async function openSetup(
  engine: EngineContext,
  request: StackRequest,
  state: StackState,
): Promise<ImportSetup> {
  const prepared = await prepareRequest(engine, request);
  const exports = engine.exportsIn(request.region);
  // An import the stack reads from a stack still on CloudFormation resolves through ListExports, as a deploy's.
  const reads = importedNames(request.template);
  await exports.readCloudFormationFor(reads.names, reads.dynamic);
  return {
    state,
    prepared,
    masked: prepared.withMaskedParameters(),
    deployable: new Set(deployableResources(prepared)),
    context: stackProviderContext(engine, request),
    router: engine.routerFor(request, { concurrency: 1 }),
    exports,
  };
}

/** Each choice names a template resource once, not yet in state. */
function checkChoices(
  stackName: string,
  setup: ImportSetup,
  choices: readonly ImportChoice[],
): Map<string, string> {
  const byId = new Map<string, string>();
  for (const { logicalId, physicalId } of choices) {
    if (!setup.deployable.has(logicalId)) {
      throw new CdkdError(
        'IMPORT_UNKNOWN_RESOURCE',
        `Stack ${stackName} declares no resource ${logicalId}.`,
        {
          hint: 'Name a logical id from the template (cdkd synth shows it), as --resource <logicalId>=<physicalId>.',
        },
      );
    }
    if (byId.has(logicalId)) {
      throw new CdkdError('IMPORT_DUPLICATE', `--resource names ${logicalId} twice.`, {
        hint: 'Give each logical id once.',
      });
    }
    const recorded = setup.state.record(logicalId);
    if (recorded) {
      throw new CdkdError(
        'IMPORT_ALREADY_MANAGED',
        `${logicalId} in stack ${stackName} already records ${recorded.physicalId}.`,
        { hint: `Run cdkd orphan ${stackName} ${logicalId} first if cdkd should stop managing it.` },
      );
    }
    byId.set(logicalId, physicalId);
  }
  return byId;
}

function evaluate(setup: ImportSetup, logicalId: string) {
  const resolver = stateResolver(setup.state, setup.exports, { pending: true });
  const desired = planningProperties(
    setup.prepared,
    logicalId,
    stateResolver(setup.state, setup.exports, { pending: true, reveal: true }),
  );
  let masked: Record<string, unknown>;
  try {
    masked = setup.masked.evaluateResourceProperties(logicalId, resolver);
  } catch {
    masked = desired;
  }
  return { desired, masked };
}

/** Refuses an id of the wrong shape, a name the template contradicts, and a resource AWS does not hold. */
async function readForImport(
  engine: EngineContext,
  setup: ImportSetup,
  wanted: WantedImport,
  accountId: string,
): Promise<{ record: ResourceRecord; differing: string[] }> {
  const { logicalId, type, physicalId } = wanted;
  const { desired, masked } = evaluate(setup, logicalId);
  const { provider, provisionedBy } = await routeLoaded(setup.router, { type, properties: desired });
  refuseIdShape(wanted, provisionedBy, { accountId });
  const name = templateNameMismatch(type, desired, physicalId);
  if (name !== undefined) {
    throw new CdkdError(
      'IMPORT_NAME_MISMATCH',
      `The template names ${logicalId} ${name}, but ${physicalId} was given to import.`,
      { hint: `Import the ${type} named ${name}, or change the name in the template to the resource's.` },
    );
  }
  let live: Awaited<ReturnType<typeof provider.read>>;
  try {
    live = await engine.retry(logicalId, () =>
      provider.read({ logicalId, type, physicalId, properties: desired }, setup.context),
    );
  } catch (cause) {
    throw notHeld(logicalId, type, physicalId, `reading it failed: ${messageOf(cause)}`, cause);
  }
  if (!live) throw notHeld(logicalId, type, physicalId, 'AWS holds no such resource');
  const applied = importedProperties(desired, masked, live.properties);
  const deployable = setup.deployable;
  const record: ResourceRecord = {
    type,
    physicalId,
    properties: applied.properties,
    observedProperties: live.properties,
    attributes: live.attributes,
    propertyHash: propertyHash(applied.hashed),
    provisionedBy,
    dependencies: setup.prepared
      .dependencyGraph()
      .dependencies(logicalId)
      .filter((id) => deployable.has(id)),
    ...setup.prepared.resourcePolicies(logicalId),
    region: setup.context.region,
    ...(live.creationIdentity ? { creationIdentity: live.creationIdentity } : {}),
  };
  return { record, differing: applied.differing };
}

function notHeld(
  logicalId: string,
  type: string,
  physicalId: string,
  why: string,
  cause?: unknown,
): CdkdError {
  return new CdkdError(
    'IMPORT_RESOURCE_NOT_FOUND',
    `Cannot import ${physicalId} as ${logicalId} (${type}): ${why}.`,
    {
      hint: `Check the id: it must name an existing ${type} in this account and region.`,
      ...(cause !== undefined ? { cause } : {}),
    },
  );
}

/**
 * Spec 001: every segment of the journal marks the adopted logical ids before state is
 * written, so a later rollback of those runs leaves them alone. No journal, nothing to mark.
 */
async function markJournal(
  engine: EngineContext,
  ref: { stackName: string; region: string },
  stackName: string,
  records: ReadonlyMap<string, ResourceRecord>,
): Promise<void> {
  const refuse = (what: string, cause: unknown) =>
    new CdkdError(
      'IMPORT_JOURNAL_UNAVAILABLE',
      `Cannot ${what} the rollback journal of stack ${stackName}, so nothing was imported: ${messageOf(cause)}`,
      { hint: 'Fix access to the state bucket (or the journal file) and run cdkd import again.', cause },
    );
  let read: Awaited<ReturnType<typeof engine.backend.journals.read>>;
  try {
    read = await engine.backend.journals.read(ref);
  } catch (error) {
    throw refuse('read', error);
  }
  if (!read || read.document.segments.length === 0) return;
  const at = new Date().toISOString();
  const marks: ImportMark[] = [...records].map(([logicalId, record]) => ({
    logicalId,
    type: record.type,
    physicalId: record.physicalId,
    at,
  }));
  const document: JournalDocument = {
    ...read.document,
    segments: read.document.segments.map((segment) => ({
      ...segment,
      importMarks: [...segment.importMarks.filter((mark) => !records.has(mark.logicalId)), ...marks],
    })),
  };
  try {
    await engine.backend.journals.writer(ref)(document, read.etag);
  } catch (error) {
    throw refuse('write', error);
  }
}

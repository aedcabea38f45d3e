import * as z from 'zod';
import type { DocumentKind } from './document-reader.js';
import { jsonObject } from './json-object.js';
import { creationIdentitySchema, outputRecordSchema, resourceRecordSchema } from './state-document.js';

/**
 * A physical id as the journal holds it. Kept loose on purpose: a torn or hand-edited
 * journal may hold anything here, and the rollback must skip such an entry with a
 * warning (spec 000, "An operation cdkd cannot address") rather than refuse the file.
 */
const looseId = z.unknown();

/** What a failed CREATE left behind when its provider proved the resource was made. */
export const madeResourceSchema = z.object({
  physicalId: looseId,
  provisionedBy: z.enum(['sdk', 'cc-api']),
  creationIdentity: creationIdentitySchema.optional(),
  /** The properties the create sent (masked): for deletes that need them, e.g. a policy's targets. */
  properties: jsonObject.default({}),
});

/** The provider's answers about what a replacement actually did (spec 000, "Reversing a replacement"). */
export const verdictSchema = z.object({
  /** True when the provider replaced the resource; false when it updated in place. */
  replacement: z.boolean().optional(),
  order: z.enum(['create-first', 'delete-first']).optional(),
  /** The old resource was left alive and untracked (UpdateReplacePolicy: Retain at the time). */
  oldRetained: z.boolean().optional(),
  /** The old resource was deleted (delete-first order, or the cleanup phase of the run). */
  oldDeleted: z.boolean().optional(),
});

/**
 * One mutation of a deploy run, recorded before its call is sent (`in-flight`) and
 * marked `completed` or `failed` after: a process killed in between leaves an entry
 * to reconcile by reading the cloud.
 */
export const journalOperationSchema = z.object({
  seq: z.number().int().min(0),
  logicalId: z.string().min(1),
  action: z.enum(['create', 'update', 'replace', 'delete']),
  type: z.string().min(1),
  /** The recorded type when the operation changed it (a replacement through both types). */
  previousType: z.string().optional(),
  status: z.enum(['in-flight', 'completed', 'failed']),
  /** The state record before the operation (masked); absent for a create. */
  before: resourceRecordSchema.optional(),
  /** The state record the operation wrote (masked); absent until it completed. */
  after: resourceRecordSchema.optional(),
  /** The physical id the operation recorded (the new one, for a create or replacement). */
  physicalId: looseId.optional(),
  previousPhysicalId: looseId.optional(),
  /** The properties the operation sent, masked: a patch-based provider diffs its undo against them. */
  attempted: jsonObject.optional(),
  /** The template's policies at the time of the operation. */
  deletionPolicy: z.string().optional(),
  updateReplacePolicy: z.string().optional(),
  verdict: verdictSchema.optional(),
  /** The layer a create (or a replacement's create) was sent to, where routing alone cannot say (--recreate-via-*). */
  createdVia: z.enum(['sdk', 'cc-api']).optional(),
  /**
   * The create's idempotency token: a provider whose generated names derive from it, or whose
   * create writes it as a tag, can find what an in-flight create made. On a delete, the token
   * it was sent with (a custom resource's RequestId), under which its answer is found.
   */
  idempotencyToken: z.string().optional(),
  /**
   * The name (or identifier) a create sends, where it is known before the call: where the
   * resource of a create a killed process left in flight would be.
   */
  name: z.string().optional(),
  /**
   * The request token Cloud Control accepted the create as, recorded before cdkd waits on it:
   * what `cdkd rollback` asks Cloud Control about a create a killed process left in flight.
   */
  acceptedRequest: z.string().optional(),
  /** A failed create (or a replacement's failed create) whose provider proved it made the resource. */
  made: madeResourceSchema.optional(),
  /** A successful deploy could not act on this made resource and kept the entry: later paths compare it live (spec 000). */
  keptByDeploy: z.boolean().optional(),
  error: z.string().optional(),
});

/** `cdkd import` adopted a logical id after this run: the rollback leaves it alone (spec 001). */
export const importMarkSchema = z.object({
  logicalId: z.string().min(1),
  type: z.string().min(1),
  physicalId: z.string(),
  at: z.string(),
});

/** The stack record a rollback returns to (spec 004, "What an update rollback puts back"). */
export const stackGenerationSchema = z.object({
  template: jsonObject.optional(),
  templateHash: z.string().optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  tags: z.record(z.string(), z.string()).default({}),
  outputs: z.record(z.string(), outputRecordSchema).default({}),
  imports: z.array(z.string()).default([]),
});

export const journalSegmentSchema = z.object({
  runId: z.string().min(1),
  startedAt: z.string(),
  cdkdVersion: z.string(),
  /** Flags that shape physical names; absent on a journal an older cdkd wrote. */
  flags: z.object({ prefixUserSuppliedNames: z.boolean().optional() }).default({}),
  previous: stackGenerationSchema,
  /** `destroy`: the run was a destroy, whose deletes a later command settles by reading the cloud; absent: a deploy. */
  command: z.literal('destroy').optional(),
  /** `failed-only`: a clean automatic rollback kept only the failed operations (spec 003). */
  status: z.enum(['running', 'failed', 'interrupted', 'succeeded', 'failed-only']),
  /**
   * The last rollback of this run failed (spec 004's UPDATE_ROLLBACK_FAILED): the stack is
   * delete-or-continue only until a rollback of it completes. Absent: none failed.
   */
  rollbackFailed: z.object({ at: z.string(), reason: z.string() }).optional(),
  operations: z.array(journalOperationSchema).default([]),
  importMarks: z.array(importMarkSchema).default([]),
});

export const journalDocumentSchema = z.object({
  version: z.literal(1),
  stackName: z.string().min(1),
  region: z.string().min(1),
  segments: z.array(journalSegmentSchema).default([]),
  /**
   * Who stored this document, and the last of that writer's changes it holds: the same
   * writer's later changes are in its tails (journal-tails.ts). Absent: a document no tail extends.
   */
  writer: z.string().min(1).optional(),
  generation: z.number().int().min(0).optional(),
});

/**
 * Operations as a run changed them, stored as an object of their own beside the journal
 * instead of a rewrite of the whole document (journal-tails.ts).
 */
export const journalTailSchema = z.object({
  version: z.literal(1),
  writer: z.string().min(1),
  generation: z.number().int().min(1),
  runId: z.string().min(1),
  operations: z.array(journalOperationSchema).min(1),
});

export type MadeResource = z.infer<typeof madeResourceSchema>;
export type Verdict = z.infer<typeof verdictSchema>;
export type JournalOperation = z.infer<typeof journalOperationSchema>;
export type ImportMark = z.infer<typeof importMarkSchema>;
export type StackGeneration = z.infer<typeof stackGenerationSchema>;
export type JournalSegment = z.infer<typeof journalSegmentSchema>;
export type JournalDocument = z.infer<typeof journalDocumentSchema>;
export type JournalTail = z.infer<typeof journalTailSchema>;

export const JOURNAL_DOCUMENT: DocumentKind<JournalDocument> = {
  name: 'rollback journal',
  currentVersion: 1,
  schema: journalDocumentSchema,
  migrations: {},
  repairHint: (key) =>
    `Restore an earlier version of ${key} from the bucket's version history, or fix the file by hand; cdkd rollback replays it.`,
};

export const JOURNAL_TAIL_DOCUMENT: DocumentKind<JournalTail> = {
  name: 'rollback journal entry',
  currentVersion: 1,
  schema: journalTailSchema,
  migrations: {},
  repairHint: (key) =>
    `Restore an earlier version of ${key} from the bucket's version history, or delete it to drop that one change of the entry it holds; cdkd rollback replays the journal with it.`,
};

import * as z from 'zod';
import type { DocumentKind } from './document-reader.js';

/** One deployment event of a stack, as `cdkd events` shows it. */
export interface StackEvent {
  /** ISO 8601. */
  timestamp: string;
  runId: string;
  /**
   * CloudFormation-style status: CREATE_COMPLETE, CREATE_FAILED, UPDATE_COMPLETE, DELETE_COMPLETE,
   * ROLLBACK_IN_PROGRESS, ROLLBACK_COMPLETE, ROLLBACK_FAILED, ROLLBACK_RESOURCE_SUCCEEDED,
   * ROLLBACK_RESOURCE_SKIPPED, ROLLBACK_RESOURCE_FAILED, DELETE_SKIPPED, ... A string, not an
   * enum, so the statuses a newer cdkd writes still read.
   */
  status: string;
  logicalId?: string;
  resourceType?: string;
  physicalId?: string;
  /**
   * A resource the run left running that state no longer names (a new copy kept by
   * UpdateReplacePolicy: Retain, one whose delete failed).
   */
  survivorId?: string;
  /** The layer that manages the survivor / resource. */
  managedBy?: 'sdk' | 'cc-api';
  reason?: string;
  /** On a resource operation's end: what it did and when it started (the event's timestamp is its end). */
  action?: string;
  startedAt?: string;
  /** Of that time, how long went to failed attempts and the waits between them. */
  retryMs?: number;
}

export const stackEventSchema = z.object({
  timestamp: z.string().min(1),
  runId: z.string().min(1),
  status: z.string().min(1),
  logicalId: z.string().optional(),
  resourceType: z.string().optional(),
  physicalId: z.string().optional(),
  survivorId: z.string().optional(),
  managedBy: z.enum(['sdk', 'cc-api']).optional(),
  reason: z.string().optional(),
  action: z.string().optional(),
  startedAt: z.string().optional(),
  retryMs: z.number().min(0).optional(),
}) satisfies z.ZodType<StackEvent>;

/**
 * One object under `{prefix}/{stack}/{region}/events/`: the events one flush of one run
 * appended. Objects are only ever added, never rewritten, and outlive the stack's state.
 */
export const eventsDocumentSchema = z.object({
  version: z.literal(1),
  stackName: z.string().min(1),
  region: z.string().min(1),
  runId: z.string().min(1),
  events: z.array(stackEventSchema),
});

export type EventsDocument = z.infer<typeof eventsDocumentSchema>;

export const EVENTS_DOCUMENT: DocumentKind<EventsDocument> = {
  name: 'events',
  currentVersion: 1,
  schema: eventsDocumentSchema,
  migrations: {},
  repairHint: (key) =>
    `Restore an earlier version of ${key} from the bucket's version history, fix the file by hand, or delete it (it only holds a past run's events).`,
};

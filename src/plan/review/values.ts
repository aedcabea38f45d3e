/**
 * One changed resource's properties as a reviewer sees them: both sides masked as state
 * masks NoEcho values (`***`), a value only the deploy can tell written `${Id}` or `${Id.Attr}`.
 */
export interface ResourceValues {
  /** The desired type; for a delete, the recorded one. */
  type: string;
  /** The recorded type, when it differs (a type change). */
  previousType?: string;
  /** As recorded; absent for a resource never deployed. */
  old?: Record<string, unknown>;
  /** As the template wants it; absent for a delete. */
  new?: Record<string, unknown>;
}

/** Each changed resource's values, by logical id. */
export type StackValues = Readonly<Record<string, ResourceValues>>;

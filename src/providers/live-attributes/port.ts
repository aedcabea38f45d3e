/** One attribute a record lacks, to be read from AWS. */
export interface LiveAttributeRequest {
  logicalId: string;
  type: string;
  physicalId: string;
  attribute: string;
  region: string;
}

/**
 * A live read's outcome: the value; a resource found without it (`observed` says what was
 * seen, `pending` when it is still coming up); or a read that failed (`errorClass`, the
 * call it made, and the error, shown under --verbose).
 */
export type LiveAttributeAnswer =
  | { kind: 'value'; value: unknown }
  | { kind: 'unassigned'; observed: string; pending?: boolean }
  | { kind: 'failed'; operation: string; errorClass: string; cause: unknown };

/**
 * The narrow port the engine reads live attributes through (the template layer never calls
 * AWS). `wait` false is `--no-wait`: a resource still coming up answers `unassigned` at once.
 */
export interface LiveAttributeReader {
  read(
    request: LiveAttributeRequest,
    options: { wait: boolean; signal?: AbortSignal },
  ): Promise<LiveAttributeAnswer>;
}

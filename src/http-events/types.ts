/**
 * The shapes an HTTP front door (the sandbox's API Gateway and function URLs, `cdkd local
 * start-api`) works on: a request as it arrived, the answer it sends, and a function's
 * answer. AWS-free, so both the sandbox and the CLI's local commands share them.
 */

export interface HttpRequest {
  method: string;
  /** The raw (percent-encoded) path, without the query string. */
  path: string;
  /** The raw query string, without `?`. */
  rawQuery: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Every header as sent: the client's casing, a repeated header once per value. */
  headerList: ReadonlyArray<readonly [string, string]>;
  body: Buffer;
  sourceIp: string;
}

export interface HttpAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Headers sent once per value (API Gateway's multi-value headers, `set-cookie`), after `headers`. */
  headerLists?: Record<string, string[]>;
  body?: Buffer | string;
}

/** What a synchronous Lambda invocation answered. */
export interface InvocationResult {
  payload: string;
  /** `Unhandled` when the handler failed (the payload is then its error). */
  functionError?: string;
}

/** Runs a function (by ARN) with a JSON payload and waits for its answer. */
export type Invoke = (functionArn: string, payload: string) => Promise<InvocationResult>;

/** A resource's properties as the front door reads them (an API, a route, an authorizer). */
export type ResourceModel = Record<string, unknown>;

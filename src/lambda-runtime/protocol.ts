/**
 * The line protocol between the sandbox and a runtime child process, the same for every
 * language: one JSON request per line on the child's stdin, one JSON message per line on
 * its fd 3. The child's stdout and stderr are what the function prints.
 */

export const RESULT_FD = 3;

export interface InvokeMessage {
  requestId: string;
  /** The event, as the JSON text the caller sent. */
  payload: string;
  /** The function's Timeout: the child starts the clock once its handler is loaded (after init). */
  timeoutMs: number;
  invokedFunctionArn: string;
  /** Base64 JSON, as the caller sent `X-Amz-Client-Context`. */
  clientContext?: string;
}

/** How Lambda reports a function's error: `{errorType, errorMessage, trace}` (Node) or `stackTrace` (Python). */
export interface FunctionErrorPayload {
  errorType: string;
  errorMessage: string;
  trace?: string[];
  stackTrace?: string[];
}

export type ChildMessage =
  /** The handler is loaded and about to run; the invocation times out at `deadlineMs` (epoch ms). */
  | { type: 'started'; requestId: string; deadlineMs: number }
  /** A console line, kept whole (a multi-line message is one log event, as on Lambda). */
  | { type: 'log'; text: string }
  /** The runtime's own word (an SDK package installed, or why it could not be): for the function's log and the sandbox's. */
  | { type: 'notice'; text: string }
  | { type: 'result'; requestId: string; payload: string }
  | { type: 'error'; requestId: string; error: FunctionErrorPayload };

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FunctionErrorPayload } from '../../../../../lambda-runtime/protocol.js';

const PREFIX = '/2018-06-01/runtime';

/** The one invocation a runtime API serves: an image function's container runs one at a time. */
export interface RuntimeApiInvocation {
  requestId: string;
  payload: string;
  /** The function's Timeout: the deadline (Lambda-Runtime-Deadline-Ms) counts from the runtime's `next`. */
  timeoutMs: number;
  invokedFunctionArn: string;
  /** Base64 JSON, as the caller sent `X-Amz-Client-Context`. */
  clientContext?: string;
}

/** What the runtime reported: the invocation's response or error, or an init error. */
export type RuntimeReport =
  | { kind: 'result'; payload: string }
  | { kind: 'error'; error: FunctionErrorPayload }
  | { kind: 'init-error'; error: FunctionErrorPayload };

/**
 * Lambda's runtime API (version 2018-06-01) for one container, on 127.0.0.1 and a port of
 * its own: `GET invocation/next` hands out the invocation (a second `next`, the runtime
 * waiting for more, is held open until the container is stopped), `POST invocation/{id}/response`,
 * `POST invocation/{id}/error` and `POST init/error` report, answered 202 as Lambda does;
 * the first report settles `reported`.
 */
export class RuntimeApi {
  /** Whether the runtime asked for the invocation (it started and reached its loop). */
  fetched = false;
  /** Called when the runtime takes the invocation, with its deadline (epoch ms). */
  onNext: (deadlineMs: number) => void = () => {};
  readonly reported: Promise<RuntimeReport>;
  private settle!: (report: RuntimeReport) => void;
  private done = false;

  private constructor(
    private readonly server: Server,
    private readonly invocation: RuntimeApiInvocation,
  ) {
    this.reported = new Promise((settle) => (this.settle = settle));
  }

  static async start(invocation: RuntimeApiInvocation): Promise<RuntimeApi> {
    const server = createServer();
    const api = new RuntimeApi(server, invocation);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void api.serve(request, response);
    });
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(0, '127.0.0.1', listening);
    });
    return api;
  }

  /** `host:port`, as AWS_LAMBDA_RUNTIME_API names it. */
  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.server.close();
    this.server.closeAllConnections();
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = (request.url ?? '').split('?')[0]!;
    const { requestId } = this.invocation;
    if (request.method === 'GET' && path === `${PREFIX}/invocation/next`) {
      if (this.fetched) return; // held open: this container gets no second invocation
      this.fetched = true;
      const deadlineMs = Date.now() + this.invocation.timeoutMs;
      this.onNext(deadlineMs);
      const event = Buffer.from(this.invocation.payload);
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(event.length),
        'lambda-runtime-aws-request-id': requestId,
        'lambda-runtime-deadline-ms': String(deadlineMs),
        'lambda-runtime-invoked-function-arn': this.invocation.invokedFunctionArn,
        'lambda-runtime-trace-id': traceId(),
        ...(this.invocation.clientContext
          ? {
              'lambda-runtime-client-context': Buffer.from(this.invocation.clientContext, 'base64').toString(
                'utf8',
              ),
            }
          : {}),
      });
      response.end(event);
      return;
    }
    if (request.method === 'POST' && path === `${PREFIX}/init/error`) {
      this.report(response, { kind: 'init-error', error: errorPayload(body, request, 'Runtime.Unknown') });
      return;
    }
    const invocation = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(path);
    if (request.method === 'POST' && invocation) {
      if (decodeURIComponent(invocation[1]!) !== requestId || !this.fetched) {
        answer(response, 400, { errorMessage: 'Invalid request ID', errorType: 'InvalidRequestID' });
        return;
      }
      this.report(
        response,
        invocation[2] === 'response'
          ? { kind: 'result', payload: body.toString('utf8') }
          : { kind: 'error', error: errorPayload(body, request, 'Unhandled') },
      );
      return;
    }
    answer(response, 404, { errorMessage: `Unknown runtime API path ${path}`, errorType: 'InvalidRequest' });
  }

  private report(response: ServerResponse, report: RuntimeReport): void {
    if (this.done) {
      answer(response, 403, {
        errorMessage: 'Invalid state transition: the invocation already has a response',
        errorType: 'InvalidStateTransition',
      });
      return;
    }
    this.done = true;
    answer(response, 202, { status: 'OK' });
    this.settle(report);
  }
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  response.end(bytes);
}

/** The runtime's error document, or one made from its error-type header when the body is no JSON object. */
function errorPayload(body: Buffer, request: IncomingMessage, fallbackType: string): FunctionErrorPayload {
  const header = request.headers['lambda-runtime-function-error-type'];
  const type = typeof header === 'string' && header ? header : fallbackType;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Partial<FunctionErrorPayload> | null;
    if (parsed && typeof parsed === 'object') {
      return {
        ...parsed,
        errorType: typeof parsed.errorType === 'string' ? parsed.errorType : type,
        errorMessage: typeof parsed.errorMessage === 'string' ? parsed.errorMessage : '',
      };
    }
  } catch {
    // Not JSON: reported as the header's type with the body as the message.
  }
  return { errorType: type, errorMessage: body.toString('utf8') };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((done, failed) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks)));
    request.on('error', failed);
  });
}

/** An X-Ray trace header as Lambda passes it (`Root=1-<8 hex time>-<24 hex>;Sampled=0`). */
function traceId(): string {
  const time = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  const random = randomBytes(12).toString('hex');
  return `Root=1-${time}-${random};Parent=${random.slice(0, 16)};Sampled=0`;
}

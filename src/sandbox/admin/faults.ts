import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { SandboxError } from '../errors.js';

export const faultSpecSchema = z
  .object({
    /** Signing name (`s3`) or `*`. */
    service: z.string().min(1),
    /** AWS operation name (`PutObject`) or `*`. */
    operation: z.string().min(1),
    /** Only calls whose request path holds this text (an S3 object key such as `state.json`). */
    pathContains: z.string().min(1).optional(),
    errorCode: z.string().min(1).optional(),
    httpStatus: z.number().int().min(400).max(599).optional(),
    message: z.string().optional(),
    /** The first matching call (1-based, counted from when the fault is added) it applies to. */
    nth: z.number().int().min(1).optional(),
    /** Apply to every matching call from the nth on (up to `count` times, if given). */
    every: z.boolean().optional(),
    /** How many matching calls it applies to (default 1, or unlimited with `every`). */
    count: z.number().int().min(1).optional(),
    latencyMs: z.number().int().min(0).optional(),
    /** Close the connection without an answer, as a network failure does. */
    dropConnection: z.boolean().optional(),
    /**
     * The call takes effect first, then the error or dropped connection replaces its answer
     * (a response lost after the service acted: the outcome the caller cannot know), and
     * `latencyMs` holds the answer instead of the call: a process killed meanwhile dies after
     * the service acted and before it heard so.
     */
    afterApply: z.boolean().optional(),
  })
  .strict()
  .refine(
    (spec) => spec.errorCode !== undefined || spec.latencyMs !== undefined || spec.dropConnection === true,
    { message: 'a fault needs errorCode (with httpStatus), dropConnection or latencyMs' },
  )
  .refine((spec) => !(spec.dropConnection === true && spec.errorCode !== undefined), {
    message: 'a fault either answers errorCode or drops the connection, not both',
  })
  .refine(
    (spec) =>
      spec.afterApply !== true ||
      spec.errorCode !== undefined ||
      spec.dropConnection === true ||
      spec.latencyMs !== undefined,
    {
      message:
        'afterApply needs errorCode or dropConnection (what replaces the answer) or latencyMs (how long it is held)',
    },
  )
  .refine((spec) => (spec.errorCode === undefined) === (spec.httpStatus === undefined), {
    message: 'errorCode and httpStatus go together',
  });

export type FaultSpec = z.infer<typeof faultSpecSchema>;

export interface Fault extends FaultSpec {
  id: string;
  /** Matching calls seen since the fault was added. */
  seen: number;
  /** Calls it applied to. */
  fired: number;
}

/** What the faults matching one call do to it. */
export interface FaultEffect {
  /** How long the call waits before it runs. */
  latencyMs: number;
  /** How long its answer waits after it ran (afterApply with latencyMs). */
  answerLatencyMs: number;
  /** What the caller gets instead of the answer: an AWS error, or a closed connection. */
  failure?: SandboxError | 'drop';
  /** The call runs before `failure` replaces its answer. */
  afterApply?: boolean;
}

/** Injected failures and delays, matched by service + operation (ARCHITECTURE.md, sandbox). */
export class FaultRegistry {
  private faults: Fault[] = [];

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: randomUUID(), seen: 0, fired: 0 };
    this.faults.push(fault);
    return { ...fault };
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  clear(): number {
    const removed = this.faults.length;
    this.faults = [];
    return removed;
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  /** Counts the call against every matching fault and returns their combined effect. */
  apply(service: string, operation: string, path = ''): FaultEffect {
    const effect: FaultEffect = { latencyMs: 0, answerLatencyMs: 0 };
    for (const fault of this.faults) {
      if (!matches(fault.service, service) || !matches(fault.operation, operation)) continue;
      if (fault.pathContains !== undefined && !path.includes(fault.pathContains)) continue;
      fault.seen += 1;
      const first = fault.nth ?? 1;
      const limit = fault.count ?? (fault.every ? Infinity : 1);
      if (fault.seen < first || fault.fired >= limit) continue;
      fault.fired += 1;
      if (fault.afterApply) effect.answerLatencyMs += fault.latencyMs ?? 0;
      else effect.latencyMs += fault.latencyMs ?? 0;
      if (effect.failure !== undefined) continue;
      if (fault.dropConnection) effect.failure = 'drop';
      else if (fault.errorCode !== undefined) {
        const message = fault.message ?? `Fault injected by the cdkd sandbox: ${fault.errorCode}`;
        effect.failure = new SandboxError(fault.errorCode, message, fault.httpStatus ?? 500);
      }
      if (effect.failure !== undefined && fault.afterApply) effect.afterApply = true;
    }
    return effect;
  }
}

function matches(pattern: string, value: string): boolean {
  return pattern === '*' || pattern === value;
}

import { CdkdError } from '../../errors.js';
import type { ExternalResolver } from '../../template/index.js';
import type { EngineContext } from '../engine-context.js';
import type { DeployOptions, StackRequest } from '../stack-request.js';
import { liveAttributeRoute } from '../../resource-types/index.js';
import type { StackState } from '../../stack-state/index.js';
import type {
  LiveAttributeAnswer,
  LiveAttributeReader,
  LiveAttributeRequest,
} from '../../providers/index.js';

export const LIVE_ATTRIBUTE_UNRESOLVED = 'LIVE_ATTRIBUTE_UNRESOLVED';

/** Thrown inside a synchronous evaluation to ask for a read; `evaluate` answers it and runs again. */
class LiveReadNeeded extends Error {
  constructor(readonly request: LiveAttributeRequest) {
    super(`live read needed: ${request.logicalId}.${request.attribute}`);
  }
}

export interface LiveAttributeOptions {
  state: Pick<StackState, 'record'>;
  region: string;
  /** Absent where nothing may call AWS: a lacking attribute then answers as the base resolver does. */
  reader?: LiveAttributeReader;
  /** False under `--no-wait`. */
  wait: boolean;
  signal?: AbortSignal;
}

/**
 * Evaluations that may read attributes live. Each `evaluate` call reads afresh what it needs
 * (nothing is cached, so the next deploy reads again), then runs the synchronous evaluation
 * with the answers: a value resolves the reference, anything else refuses it.
 */
export class LiveAttributes {
  constructor(private readonly options: LiveAttributeOptions) {}

  async evaluate<T>(base: ExternalResolver, evaluation: (resolver: ExternalResolver) => T): Promise<T> {
    return this.evaluateAll([base], ([resolver]) => evaluation(resolver!));
  }

  /** One evaluation over several resolvers (what is sent and what is stored), sharing the reads. */
  async evaluateAll<T>(
    bases: readonly ExternalResolver[],
    evaluation: (resolvers: ExternalResolver[]) => T,
  ): Promise<T> {
    const answers = new Map<string, LiveAttributeAnswer>();
    const resolvers = bases.map((base) => this.resolver(base, answers));
    for (;;) {
      try {
        return evaluation(resolvers);
      } catch (error) {
        if (!(error instanceof LiveReadNeeded)) throw error;
        const { request } = error;
        const { reader, wait, signal } = this.options;
        answers.set(key(request), await reader!.read(request, { wait, ...(signal ? { signal } : {}) }));
      }
    }
  }

  private resolver(base: ExternalResolver, answers: Map<string, LiveAttributeAnswer>): ExternalResolver {
    const { state, region, reader, wait } = this.options;
    return {
      ref: (logicalId) => base.ref(logicalId),
      importValue: (name) => base.importValue(name),
      getAtt: (logicalId, attribute) => {
        const record = state.record(logicalId);
        if (!record) return base.getAtt(logicalId, attribute);
        const route = liveAttributeRoute(record.type, attribute, record.attributes);
        const request = { logicalId, type: record.type, physicalId: record.physicalId, attribute, region };
        if (route === 'refuse') throw notRecorded(request);
        if (route === 'recorded' || !reader) return base.getAtt(logicalId, attribute);
        const answer = answers.get(key(request));
        if (!answer) throw new LiveReadNeeded(request);
        if (answer.kind === 'value') return answer.value;
        throw liveAttributeRefusal(request, answer, { wait });
      },
    };
  }
}

function key(request: LiveAttributeRequest): string {
  return `${request.logicalId}\n${request.attribute}`;
}

export function isLiveAttributeRefusal(error: unknown): error is CdkdError {
  return error instanceof CdkdError && error.code === LIVE_ATTRIBUTE_UNRESOLVED;
}

/** The refusal: the resource, the attribute, what the read observed, and the remedy. */
export function liveAttributeRefusal(
  request: LiveAttributeRequest,
  answer: Exclude<LiveAttributeAnswer, { kind: 'value' }>,
  options: { wait: boolean },
): CdkdError {
  const subject = `Fn::GetAtt ${request.logicalId}.${request.attribute}: ${request.type} ${request.physicalId}`;
  if (answer.kind === 'failed') {
    return new CdkdError(
      LIVE_ATTRIBUTE_UNRESOLVED,
      `${subject} could not be read (${answer.operation}: ${answer.errorClass}), so its ${request.attribute} is unknown.`,
      {
        hint: `Let cdkd's credentials call ${answer.operation} on ${request.physicalId} (--verbose shows AWS's message), then run the command again.`,
        cause: answer.cause,
      },
    );
  }
  const hint =
    answer.pending && !options.wait
      ? `Deploy again without --no-wait (cdkd then waits for ${request.physicalId} to be ready), or once it is.`
      : `Make ${request.physicalId} have a ${request.attribute} (or stop reading it), then run the command again.`;
  return new CdkdError(
    LIVE_ATTRIBUTE_UNRESOLVED,
    `${subject} is ${answer.observed}, so it has no ${request.attribute} yet; cdkd never substitutes the resource's id.`,
    { hint },
  );
}

function notRecorded(request: LiveAttributeRequest): CdkdError {
  return new CdkdError(
    LIVE_ATTRIBUTE_UNRESOLVED,
    `Fn::GetAtt ${request.logicalId}.${request.attribute}: the state record of ${request.type} ${request.physicalId} holds no ${request.attribute}, and cdkd does not read it live.`,
    {
      hint: `Deploy a change to ${request.logicalId} so cdkd records its ${request.attribute} again, or read the value from the resource it comes from (the VPC of the proxy's subnets).`,
    },
  );
}

/** A deploy's live reads for one stack: its records, its region, and `--no-wait`. */
export function liveAttributesFor(
  engine: Pick<EngineContext, 'liveAttributes'>,
  state: Pick<StackState, 'record'>,
  request: Pick<StackRequest, 'region'>,
  options: Pick<DeployOptions, 'wait' | 'signal'>,
): LiveAttributes {
  return new LiveAttributes({
    state,
    region: request.region,
    reader: engine.liveAttributes,
    wait: options.wait !== false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

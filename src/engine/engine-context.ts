import type { AwsClients, ParameterReader } from '../aws/index.js';
import type { EventLog, StateBackend, StackRef } from '../state/index.js';
import type { LiveAttributeReader, ProviderContext, ProbeResult, ProbeTarget } from '../providers/index.js';
import type { CommandName, IoHost } from '../messages/index.js';
import type { EventSink } from './events.js';
import type { ExportIndex } from './export-index.js';
import type { ProviderRouter } from '../provider-calls/index.js';
import type { RegistrySchemas } from './registry-schemas.js';
import type { DeployOptions, StackRequest } from './stack-request.js';

/** Runs one pre-flight emptiness probe in the stack's deploy region. */
export type EmptinessProber = (target: ProbeTarget, region: string) => Promise<ProbeResult>;

/** A stack the engine works on, as far as routing nested stacks needs to know it. */
export type StackIdentity = Omit<StackRequest, 'template'>;

/** What the engine needs from the outside, built once per command. */
export interface EngineContext {
  backend: StateBackend;
  clients: AwsClients;
  /** Exports are per region, as on AWS. */
  exportsIn(region: string): ExportIndex;
  /** Where the engine's messages and questions go, and the command they come from. */
  io: IoHost;
  command: CommandName;
  /** The engine's events, sent to `io` as messages. */
  events: EventSink;
  /** The stack's deployment events (`cdkd events`) for one run. */
  eventLog(stack: StackRef, runId: string): EventLog;
  /** Wraps each provider call in the retry schedule of its error class. */
  retry<T>(label: string, call: () => Promise<T>): Promise<T>;
  parameterReader(region: string): ParameterReader;
  sendable(region: string): (properties: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** The provider router for one stack: the registry, plus nested stacks handled by the engine itself. */
  routerFor(stack: StackIdentity, options: DeployOptions): ProviderRouter;
  /** Spec 002's pre-flight emptiness probe of a bucket or log group about to be recreated. */
  probeEmptiness: EmptinessProber;
  /** Reads the Fn::GetAtt attributes a record lacks from AWS (spec 002). */
  liveAttributes: LiveAttributeReader;
  /** The registry's replacement verdicts, asked once per type in the run. */
  registrySchemas: RegistrySchemas;
}

/** What every provider call for the stack is given: the clients, and the stack's account, region and name. */
export function stackProviderContext(engine: EngineContext, stack: StackIdentity): ProviderContext {
  return {
    clients: engine.clients,
    accountId: stack.accountId,
    region: stack.region,
    stackName: stack.stackName,
  };
}

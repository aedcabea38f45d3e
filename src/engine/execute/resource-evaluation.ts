import type { PlannedOperation } from '../../plan/index.js';
import type { ResourceRecord } from '../../state/index.js';
import type { ExternalResolver } from '../../template/index.js';
import { routeEvaluated, routeRecreate, type RoutedProperties } from '../planning/index.js';
import type { ExecutorServices } from './executor-services.js';

type Services = Pick<ExecutorServices, 'evaluation' | 'router'>;

/** A resource's properties as they are sent (NoEcho values in clear) and as they are stored (masked). */
export async function evaluateResource(
  services: Pick<ExecutorServices, 'evaluation'>,
  logicalId: string,
): Promise<{ properties: Record<string, unknown>; stored: Record<string, unknown> }> {
  const evaluation = services.evaluation;
  if (!evaluation) throw new Error(`no template to evaluate ${logicalId} against`);
  const both = ([resolver, maskedResolver]: ExternalResolver[]) => ({
    properties: evaluation.prepared.evaluateResourceProperties(logicalId, resolver!),
    stored: evaluation.masked.evaluateResourceProperties(logicalId, maskedResolver!),
  });
  const resolvers = [evaluation.resolver, evaluation.maskedResolver];
  return evaluation.live ? evaluation.live.evaluateAll(resolvers, both) : both(resolvers);
}

/** Evaluated and routed for a create (`recorded` absent) or an update: see routeEvaluated. */
export async function routedResource(
  services: Services,
  op: PlannedOperation,
  recorded: ResourceRecord | undefined,
): Promise<RoutedProperties> {
  const evaluated = await evaluateResource(services, op.logicalId);
  await services.router.load?.([op.type]);
  return routeEvaluated(services.router, op, evaluated, recorded);
}

/** Evaluated and sent to the layer a --recreate-via-* flag names: see routeRecreate. */
export async function recreateRoutedResource(
  services: Services,
  op: PlannedOperation,
  layer: NonNullable<PlannedOperation['recreateVia']>,
): Promise<RoutedProperties> {
  const evaluated = await evaluateResource(services, op.logicalId);
  await services.router.load?.([op.type]);
  return routeRecreate(services.router, op.type, evaluated, layer);
}

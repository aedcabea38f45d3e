import { prefixedNameProperty, userSuppliedName } from '../providers/user-supplied-names.js';
import { nameProperty } from '../resource-types/index.js';

export interface RecreateNameInput {
  /** The old resource being re-created: its type, journaled properties and physical id. */
  type: string;
  properties: Record<string, unknown>;
  physicalId: string;
  stackName: string;
  /** The failed deploy's --prefix-user-supplied-names setting (journaled, or its fallback). */
  prefix: boolean;
}

/**
 * The name a re-create sends for a type whose explicit names the prefix setting rewrites
 * (spec 001, "Names of re-created resources"): the one the failed deploy's setting gives,
 * unless the old resource's physical id shows it was made under the other setting (an
 * earlier deploy ran with the other one), which it keeps; a name neither setting gives is
 * kept too, with a warning.
 */
export type RecreateName =
  /** Not a rewriting type, no explicit name, or a name under the run's setting: send as the setting makes it. */
  | { kind: 'as-setting'; name?: string }
  /** Send exactly `name`, which the physical id shows; `note` says why, as a line or a warning. */
  | { kind: 'from-physical-id'; name: string; note: string; warning: boolean };

export function recreateName(input: RecreateNameInput): RecreateName {
  const property = prefixedNameProperty(input.type);
  const given = property ? input.properties[property] : undefined;
  if (typeof given !== 'string' || given === '') return { kind: 'as-setting' };
  const sent = userSuppliedName(input.type, given, input.stackName, input.prefix);
  const rule = nameProperty(input.type);
  const fromId = rule?.fromId ? rule.fromId(input.physicalId).name : input.physicalId;
  const same = (a: string, b: string) => (rule?.fold ? rule.fold(a) === rule.fold(b) : a === b);
  if (fromId === undefined || fromId === '' || same(fromId, sent)) return { kind: 'as-setting', name: sent };
  const other = userSuppliedName(input.type, given, input.stackName, !input.prefix);
  if (same(fromId, other)) {
    return {
      kind: 'from-physical-id',
      name: fromId,
      note: `it keeps its name ${fromId}, which an earlier deploy made ${input.prefix ? 'without' : 'with'} --prefix-user-supplied-names (the failed deploy ran ${input.prefix ? 'with' : 'without'} it)`,
      warning: false,
    };
  }
  return {
    kind: 'from-physical-id',
    name: fromId,
    note: `neither name setting gives its name ${fromId} (${given} gives ${sent} under the failed deploy's setting, ${other} under the other), so it is re-created under the name its physical id shows`,
    warning: true,
  };
}

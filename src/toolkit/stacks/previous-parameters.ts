import type { Template } from '../../assembly/index.js';
import type { Session } from '../session/session.js';
import type { StackTarget } from './stack-requests.js';

type RecordedValue = string | string[];

interface DeclaredParameter {
  Type?: unknown;
  NoEcho?: unknown;
}

/**
 * The parameters a deploy takes from the stack's record (`--previous-parameters`, on by
 * default, as the CDK CLI's UsePreviousValue): declared by the template, given by neither the
 * app nor `--parameters`, and recorded by the last deploy. Not carried: an SSM-typed
 * parameter (its value is a parameter name, looked up afresh on every deploy) and a NoEcho
 * one, whose value the record masks; those take their Default as on a first deploy.
 */
export function carriedParameters(
  template: Template,
  supplied: Readonly<Record<string, string>>,
  recorded: Readonly<Record<string, RecordedValue>>,
): Record<string, string> {
  const declared = (template.Parameters ?? {}) as Record<string, DeclaredParameter | undefined>;
  const carried: Record<string, string> = {};
  for (const [name, definition] of Object.entries(declared)) {
    const value = recorded[name];
    if (value === undefined || supplied[name] !== undefined) continue;
    if (definition?.NoEcho === true || definition?.NoEcho === 'true') continue;
    if (String(definition?.Type ?? '').startsWith('AWS::SSM::Parameter::')) continue;
    carried[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return carried;
}

/** Whether `template` declares a parameter that could be carried, so its record is worth reading. */
export function mayCarry(template: Template, supplied: Readonly<Record<string, string>>): boolean {
  return Object.keys(carriedParameters(template, supplied, allRecorded(template))).length > 0;
}

function allRecorded(template: Template): Record<string, string> {
  return Object.fromEntries(Object.keys(template.Parameters ?? {}).map((name) => [name, '']));
}

/** Each stack's values with what its record carries over added; a stack never deployed carries nothing. */
export async function withPreviousParameters(
  session: Session,
  stacks: ReadonlyArray<{ displayName: string; stateName: string; template: Template; target: StackTarget }>,
  values: Map<string, Record<string, string>>,
): Promise<void> {
  for (const stack of stacks) {
    const supplied = values.get(stack.displayName)!;
    if (!mayCarry(stack.template, supplied)) continue;
    // The record is in the stack's own account (cdkd's state bucket there).
    const backend = await (await session.forAccount(stack.target)).stateBackend();
    const read = await backend.store.read({ stackName: stack.stateName, region: stack.target.region });
    if (!read?.document.template) continue;
    values.set(stack.displayName, {
      ...carriedParameters(stack.template, supplied, read.document.parameters),
      ...supplied,
    });
  }
}

/**
 * The names CloudFormation accepts, shared by the pre-flight checks and the state keys: a
 * name it refuses could otherwise reach into another stack's documents.
 */
const STACK_NAME = /^[A-Za-z][-A-Za-z0-9]*$/;
export const MAX_STACK_NAME_LENGTH = 128;
const LOGICAL_ID = /^[A-Za-z0-9]+$/;
export const MAX_LOGICAL_ID_LENGTH = 255;

/** Why CloudFormation refuses `name` as a stack name, or undefined when it accepts it. */
export function stackNameProblem(name: string): string | undefined {
  if (name === '') return 'a stack name cannot be empty';
  if (name.length > MAX_STACK_NAME_LENGTH) {
    return `a stack name is at most ${MAX_STACK_NAME_LENGTH} characters, this one has ${name.length}`;
  }
  if (!STACK_NAME.test(name)) {
    return 'a stack name starts with a letter and holds only letters, digits and hyphens ([A-Za-z][-A-Za-z0-9]*)';
  }
  return undefined;
}

/** Why CloudFormation refuses `id` as a logical id (of a resource, output, parameter...), or undefined. */
export function logicalIdProblem(id: string): string | undefined {
  if (!LOGICAL_ID.test(id)) return 'is non alphanumeric';
  if (id.length > MAX_LOGICAL_ID_LENGTH) {
    return `is longer than ${MAX_LOGICAL_ID_LENGTH} characters (${id.length})`;
  }
  return undefined;
}

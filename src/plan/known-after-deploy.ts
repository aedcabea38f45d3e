/**
 * How a plan shows a value only the deploy can tell (an id AWS assigns to a resource this run
 * creates, an export an earlier stack of the run creates), as Terraform's "known after apply".
 */
export const KNOWN_AFTER_DEPLOY = '(known after deploy)';

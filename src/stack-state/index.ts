export { maskEchoes, maskedReadBack, maskedSecrets, maskingErrors } from './echoed-secrets.js';
export { StackState } from './stack-state.js';

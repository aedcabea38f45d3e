import type { ProviderRegistry } from '../registry.js';
import { STATE_MACHINE_TYPE, StateMachineProvider } from './state-machine.js';

/** The Step Functions SDK provider: AWS::StepFunctions::StateMachine. */
export function registerStepFunctions(registry: ProviderRegistry): ProviderRegistry {
  return registry.registerSdk(STATE_MACHINE_TYPE, new StateMachineProvider());
}

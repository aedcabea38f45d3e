import type { ProviderRegistry } from '../registry.js';
import { GROUP } from './group.js';
import { InstanceProfileProvider } from './instance-profile.js';
import { ManagedPolicyProvider } from './managed-policy.js';
import { PolicyProvider } from './policy.js';
import { PrincipalProvider } from './principal-provider.js';
import { ROLE } from './role.js';
import { USER } from './user.js';

/**
 * The IAM SDK providers, one per type. AWS::IAM::Role is `sdk-coverage`: its provider sends every
 * property of the type's schema, and the role name it records is the Cloud Control identifier
 * (measured, see cc-identifier-compatibility.ts), so a role on Cloud Control returns in place.
 */
export function registerIam(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk('AWS::IAM::Role', new PrincipalProvider(ROLE), { exemption: 'sdk-coverage' })
    .registerSdk('AWS::IAM::Policy', new PolicyProvider())
    .registerSdk('AWS::IAM::ManagedPolicy', new ManagedPolicyProvider())
    .registerSdk('AWS::IAM::InstanceProfile', new InstanceProfileProvider())
    .registerSdk('AWS::IAM::User', new PrincipalProvider(USER))
    .registerSdk('AWS::IAM::Group', new PrincipalProvider(GROUP));
}

/**
 * Exit codes (ARCHITECTURE.md, invariant 5): 0 done; 1 failed; 2 done but something
 * needs a person; 130 forced quit.
 */
export type ExitCode = 0 | 1 | 2 | 130;

/** What one error code means, and the exit code an error with it leaves by unless raised with another. */
export interface ErrorCodeEntry {
  meaning: string;
  exitCode: ExitCode;
}

/**
 * Every code a CdkdError (or a rollback refusal) carries: the spec's codes and cdkd's own.
 * `ErrorCode` is derived from the keys, so a code missing here fails to compile; the README's
 * error-code list is generated from this object (`npm run docs:errors`).
 */
export const ERROR_CODES = {
  ACCOUNT_MISMATCH: {
    exitCode: 1,
    meaning: 'A stack names an account other than the one the credentials in use belong to.',
  },
  AMBIGUOUS_CREATE_NAME_TAKEN: {
    exitCode: 1,
    meaning:
      'A create whose answer was lost was sent again and found its name taken: the first attempt may have made the resource.',
  },
  APP_MISSING: { exitCode: 1, meaning: 'No CDK app to run: no --app, no CDKD_APP and no "app" in cdk.json.' },
  APP_NOT_FOUND: { exitCode: 1, meaning: '--app names a directory or file that does not exist.' },
  ASSEMBLY_HAS_ERRORS: { exitCode: 1, meaning: 'The app reported error annotations while synthesizing.' },
  ASSEMBLY_HAS_WARNINGS: { exitCode: 1, meaning: 'The app reported warning annotations and --strict is on.' },
  ASSEMBLY_MALFORMED: {
    exitCode: 1,
    meaning:
      "The cloud assembly breaks its schema's rules (a nested assembly points back, a field is missing ...).",
  },
  ASSEMBLY_NOT_FOUND: { exitCode: 1, meaning: '--app names a directory that holds no manifest.json.' },
  ASSEMBLY_VERSION_UNSUPPORTED: {
    exitCode: 1,
    meaning: 'The cloud assembly was written by a newer CDK than cdkd reads.',
  },
  ASSET_BUCKET_ACCESS_DENIED: { exitCode: 1, meaning: 'Access to the asset bucket was denied.' },
  ASSET_BUCKET_NOT_FOUND: { exitCode: 1, meaning: 'The asset bucket does not exist.' },
  ASSET_BUCKET_WRONG_REGION: {
    exitCode: 1,
    meaning: 'The asset bucket is not in the region being deployed to.',
  },
  ASSET_EXECUTABLE_UNSUPPORTED: {
    exitCode: 1,
    meaning: 'An asset is produced by a command, which cdkd does not run.',
  },
  ASSET_NOT_FOUND: {
    exitCode: 1,
    meaning: "An asset's file or directory is missing from the cloud assembly.",
  },
  ASSET_PATH_ESCAPES: {
    exitCode: 1,
    meaning: "An asset's path resolves outside the cloud assembly's output directory.",
  },
  ASSET_SOURCE_MISMATCH: {
    exitCode: 1,
    meaning: "An asset's packaging says file or directory and its path is the other.",
  },
  ASSET_SYMLINK_BROKEN: {
    exitCode: 1,
    meaning: 'An asset directory holds a symlink whose target does not exist.',
  },
  ASSET_SYMLINK_LOOP: {
    exitCode: 1,
    meaning: 'An asset directory holds a symlink back to a directory containing it.',
  },
  ASSET_UNSUPPORTED_ENTRY: {
    exitCode: 1,
    meaning: 'An asset directory holds a socket, FIFO or device, which cannot be zipped.',
  },
  ASSET_UPLOAD_FAILED: { exitCode: 1, meaning: 'Uploading an asset to the asset bucket failed.' },
  ATTRIBUTE_UNAVAILABLE: {
    exitCode: 1,
    meaning: 'A template reads an attribute the state does not record for that resource.',
  },
  BUCKET_NAME_INVALID: { exitCode: 1, meaning: 'A bucket name given to cdkd is not a valid S3 bucket name.' },
  BUCKET_NAME_TAKEN: { exitCode: 1, meaning: "cdkd's bucket exists but this account cannot use it." },
  CANCELLED: {
    exitCode: 1,
    meaning: 'A confirmation was refused or cancelled; nothing was changed (130 when cancelled with Ctrl+C).',
  },
  CC_IDENTIFIER_UNVERIFIED: {
    exitCode: 1,
    meaning: 'A move to Cloud Control needs an identifier mapping cdkd has not verified for the type.',
  },
  CC_OPERATION_TIMEOUT: {
    exitCode: 1,
    meaning: 'A Cloud Control operation did not finish within its deadline.',
  },
  CC_STATUS_UNREACHABLE: {
    exitCode: 1,
    meaning: "Cloud Control could not be reached while waiting for an operation's status.",
  },
  CDK_JSON_INVALID: {
    exitCode: 1,
    meaning: 'cdk.json is not valid JSON or holds a field of the wrong shape.',
  },
  CONDITION_CYCLE: { exitCode: 1, meaning: "The template's conditions refer to each other in a cycle." },
  CONFIRMATION_REQUIRED: {
    exitCode: 1,
    meaning: 'A command needs a confirmation and there is no terminal to ask on.',
  },
  CONTAINER_ASSETS_UNSUPPORTED: {
    exitCode: 1,
    meaning: 'A stack has a container image asset, which cdkd cannot build and push yet.',
  },
  CONTEXT_FILE_INVALID: { exitCode: 1, meaning: 'cdk.context.json is not valid JSON or not a JSON object.' },
  CONTEXT_KEY_NOT_FOUND: {
    exitCode: 1,
    meaning: 'cdkd context names a key the context cache does not hold.',
  },
  CONTEXT_KEY_RESERVED: {
    exitCode: 1,
    meaning: '-c sets a context key starting with "aws:", which the CDK reserves.',
  },
  CONTEXT_LOOKUPS_DISABLED: { exitCode: 1, meaning: 'The app needs context lookups and --no-lookups is on.' },
  CONTEXT_LOOKUP_FAILED: { exitCode: 1, meaning: 'A context lookup found nothing or failed.' },
  CONTEXT_LOOKUP_LOOP: {
    exitCode: 1,
    meaning: 'The app kept reporting missing context after repeated runs.',
  },
  CONTEXT_LOOKUP_UNSUPPORTED: { exitCode: 1, meaning: 'The app needs a context lookup cdkd cannot answer.' },
  CREATE_ONLY_DROP_NEEDS_REPLACEMENT: {
    exitCode: 1,
    meaning:
      'Sending a create-only property an earlier SDK-route deploy left unsent would replace the resource; cdkd refuses to do that on its own.',
  },
  CREDENTIALS_UNAVAILABLE: {
    exitCode: 1,
    meaning: 'cdkd could not find out which AWS account the credentials belong to.',
  },
  CUSTOM_RESOURCE_BAD_RESPONSE: {
    exitCode: 1,
    meaning: "A custom resource handler's response breaks CloudFormation's response rules.",
  },
  CUSTOM_RESOURCE_FAILED: { exitCode: 1, meaning: 'A custom resource handler answered FAILED.' },
  CUSTOM_RESOURCE_RETRIES_INVALID: {
    exitCode: 1,
    meaning: 'CDKD_CR_AUTHZ_MAX_RETRIES is not a whole number.',
  },
  CUSTOM_RESOURCE_SERVICE_TIMEOUT: {
    exitCode: 1,
    meaning: "A custom resource's ServiceTimeout is not a whole number of seconds from 1 to 3600.",
  },
  CUSTOM_RESOURCE_SERVICE_TOKEN: {
    exitCode: 1,
    meaning: "A custom resource's ServiceToken is missing or names no function or topic cdkd can deliver to.",
  },
  CUSTOM_RESOURCE_TIMEOUT: {
    exitCode: 1,
    meaning: 'A custom resource handler did not answer within its ServiceTimeout.',
  },
  DELETION_PROTECTED: {
    exitCode: 1,
    meaning: 'AWS refuses to delete a resource whose deletion protection is on.',
  },
  DEPENDENCY_CYCLE: { exitCode: 1, meaning: "The template's resources depend on each other in a cycle." },
  DEPLOY_FAILED: {
    exitCode: 1,
    meaning: "A stack's deploy failed (after its automatic rollback, where one ran).",
  },
  DESTROY_FAILED: {
    exitCode: 1,
    meaning: "A stack's destroy failed or was interrupted; state keeps what is left.",
  },
  DESTROY_ORPHAN_UNKNOWN: {
    exitCode: 1,
    meaning: 'destroy --orphan names a resource neither the state nor the journal records.',
  },
  DRIFT_FLAGS_CONFLICT: { exitCode: 1, meaning: 'drift --accept and --revert were both given.' },
  DRIFT_SELECTION_CONFLICT: { exitCode: 1, meaning: 'drift --all and stack names were both given.' },
  DRIFT_STACK_REQUIRED: { exitCode: 1, meaning: 'The state holds several stacks and drift was told none.' },
  DYNAMODB_WAIT_TIMEOUT: {
    exitCode: 1,
    meaning: 'A DynamoDB table did not become ACTIVE or deleted within 30 minutes.',
  },
  EXPORT_IN_USE: { exitCode: 1, meaning: 'A deploy would remove exports other stacks still import.' },
  EXPORT_NAME_TAKEN: { exitCode: 1, meaning: 'A stack exports a name another stack already exports.' },
  HTML_FILE_FAILED: { exitCode: 1, meaning: 'The --html file could not be written.' },
  IAM_POLICY_CLEANUP_FAILED: {
    exitCode: 1,
    meaning: "An IAM policy's create failed and detaching what it attached failed too.",
  },
  IAM_POLICY_NO_TARGET: { exitCode: 1, meaning: 'An AWS::IAM::Policy names no group, role or user.' },
  IMPORT_ALREADY_MANAGED: {
    exitCode: 1,
    meaning: 'import names a logical id whose state already records a physical id.',
  },
  IMPORT_CDKD_BUCKET: {
    exitCode: 1,
    meaning: "import names cdkd's own state or asset bucket, which it never adopts.",
  },
  IMPORT_DUPLICATE: { exitCode: 1, meaning: 'import --resource names one logical id twice.' },
  IMPORT_DUPLICATE_RESOURCE: {
    exitCode: 1,
    meaning: 'import --resource gives one physical id to two logical ids.',
  },
  IMPORT_ID_INVALID: {
    exitCode: 1,
    meaning: 'An imported physical id is not of the form cdkd identifies the type by.',
  },
  IMPORT_JOURNAL_UNAVAILABLE: {
    exitCode: 1,
    meaning: "The stack's rollback journal could not be read or written, so nothing was imported.",
  },
  IMPORT_MANAGED_ELSEWHERE: {
    exitCode: 1,
    meaning: 'An imported resource already belongs to another cdkd stack.',
  },
  IMPORT_NAME_MISMATCH: {
    exitCode: 1,
    meaning: 'The template names the resource differently from the physical id given to import.',
  },
  IMPORT_NOT_FOUND: { exitCode: 1, meaning: 'Fn::ImportValue names an export no stack provides.' },
  IMPORT_OWNER_UNKNOWN: {
    exitCode: 1,
    meaning:
      "Another stack's state could not be read, so cdkd cannot tell whether it already manages the import.",
  },
  IMPORT_RESOURCE_NOT_FOUND: {
    exitCode: 1,
    meaning: 'The resource to import does not exist or cannot be read.',
  },
  IMPORT_RESOURCE_SYNTAX: {
    exitCode: 1,
    meaning: 'An import --resource value is not <logicalId>=<physicalId>.',
  },
  IMPORT_UNKNOWN_RESOURCE: { exitCode: 1, meaning: 'import names a logical id the stack does not declare.' },
  INTERRUPTED: {
    exitCode: 1,
    meaning: "A signal stopped the command (exit 130 where the command's signal rule says so).",
  },
  INVALID_REFERENCE: {
    exitCode: 1,
    meaning: 'A Ref or Fn::GetAtt names something the template does not declare.',
  },
  LIVE_ATTRIBUTE_UNRESOLVED: {
    exitCode: 1,
    meaning: 'An attribute that must be read live from AWS could not be read.',
  },
  LOCK_CHANGED: { exitCode: 1, meaning: "The stack's lock changed after force-unlock showed it." },
  LOCK_HELD: { exitCode: 1, meaning: "Another writer holds the stack's lock." },
  LOCK_HOLDER_RUNNING: {
    exitCode: 1,
    meaning: "force-unlock found the lock's holder still running on this host.",
  },
  LOG_RETENTION_INVALID: {
    exitCode: 1,
    meaning: "A log group's RetentionInDays is not a value CloudFormation takes.",
  },
  NAMED_CREATE_COLLISION: {
    exitCode: 1,
    meaning: "A resource's name is already taken by a resource cdkd does not manage.",
  },
  NAMED_REPLACEMENT_COLLISION: {
    exitCode: 1,
    meaning: 'A replacement would create the new copy under the name the old one still holds.',
  },
  NAMED_REPLACEMENT_IDEMPOTENT_CREATE: {
    exitCode: 1,
    meaning: 'A create-first replacement got back the resource being replaced.',
  },
  NESTED_STACK_CYCLE: { exitCode: 1, meaning: 'Nested stacks include each other in a cycle.' },
  NESTED_STACK_TOO_DEEP: { exitCode: 1, meaning: 'Nested stacks are more than 512 levels deep.' },
  NESTED_STACK_TOO_MANY: { exitCode: 1, meaning: 'A nested stack tree has more than 10,000 stack rows.' },
  NESTED_TEMPLATE_MISSING: { exitCode: 1, meaning: "A nested stack's template file is missing." },
  NESTED_TEMPLATE_NOT_FOUND: {
    exitCode: 1,
    meaning: 'No template was found in the cloud assembly for a nested stack.',
  },
  NESTED_TEMPLATE_PATH_ABSOLUTE: { exitCode: 1, meaning: "A nested stack's aws:asset:path is absolute." },
  NESTED_TEMPLATE_PATH_ESCAPES: {
    exitCode: 1,
    meaning: "A nested stack's template path leaves the output directory.",
  },
  NO_ECHO_DATA_MISSING: { exitCode: 1, meaning: "A NoEcho value's stored data is missing or unreadable." },
  NO_STACKS: { exitCode: 1, meaning: 'The cloud assembly contains no stacks.' },
  ORPHAN_JOURNALED: {
    exitCode: 1,
    meaning: 'orphan names resources the rollback journal still holds operations on.',
  },
  ORPHAN_REFERENCED: {
    exitCode: 1,
    meaning: 'Other resources still reference what orphan would remove from state.',
  },
  ORPHAN_UNKNOWN_RESOURCE: { exitCode: 1, meaning: 'orphan names a resource the stack does not record.' },
  OUTPUTS_FILE_FAILED: {
    exitCode: 1,
    meaning: 'The deploy succeeded but its outputs could not be written to --outputs-file.',
  },
  OUTPUTS_FILE_INVALID: { exitCode: 1, meaning: '--outputs-file names a directory.' },
  PARAMETER_INVALID: {
    exitCode: 1,
    meaning: "A parameter value breaks the parameter's type or constraints.",
  },
  PARAMETER_MISSING: { exitCode: 1, meaning: 'A parameter without a default was given no value.' },
  PARAMETER_SYNTAX: { exitCode: 1, meaning: 'A --parameters value is not KEY=VALUE or STACK:KEY=VALUE.' },
  PARAMETER_UNKNOWN: {
    exitCode: 1,
    meaning: 'A parameter value names a parameter the template does not declare.',
  },
  PIN_CC_API_UNKNOWN_ID: {
    exitCode: 1,
    meaning: '--pin-cc-api names a logical id no stack of the run declares.',
  },
  PREFER_SDK_ROUTE_INVALID: {
    exitCode: 1,
    meaning: '--prefer-sdk-route does not name a resource type and property.',
  },
  PREFIX_SETTING_INVALID: {
    exitCode: 1,
    meaning: 'CDKD_PREFIX_USER_SUPPLIED_NAMES is neither true nor false.',
  },
  RECREATE_FLAGS_CONFLICT: {
    exitCode: 1,
    meaning: 'One logical id is named by both --recreate-via-cc-api and --recreate-via-sdk-provider.',
  },
  RECREATE_LAYER_UNAVAILABLE: {
    exitCode: 1,
    meaning: 'A resource cannot be re-created through the layer asked for.',
  },
  RECREATE_VIA_UNKNOWN_ID: {
    exitCode: 1,
    meaning: 'A --recreate-via flag names a logical id no stack of the run declares.',
  },
  REGION_INVALID: { exitCode: 1, meaning: 'A configured region is not an AWS region name.' },
  REGION_MISSING: { exitCode: 1, meaning: 'No AWS region is configured.' },
  RESOURCE_FAILED: { exitCode: 1, meaning: "A resource's create, update or delete failed." },
  RESOURCE_INDEX_INVALID: { exitCode: 1, meaning: 'The generated resource schema index is not valid.' },
  RESOURCE_INDEX_MISSING: { exitCode: 1, meaning: 'The generated resource schema index is missing.' },
  RESOURCE_NOT_MADE: { exitCode: 1, meaning: 'A resource is referenced before it was made.' },
  ROLLBACK_DROP_REFUSED: {
    exitCode: 1,
    meaning: 'rollback --drop-failed refuses to drop the failed operations.',
  },
  ROLLBACK_FLAGS_CONFLICT: {
    exitCode: 1,
    meaning: 'rollback --drop-failed was given with --revert-failed, --orphan or --force.',
  },
  ROLLBACK_NAME_COLLISION: {
    exitCode: 1,
    meaning: 'Reversing a replacement would need a name that is still taken.',
  },
  ROLLBACK_NAME_HELD_BY_RETAINED: {
    exitCode: 1,
    meaning: 'Reversing a replacement needs a name a retained copy still holds.',
  },
  ROLLBACK_NESTED_FAILED: {
    exitCode: 1,
    meaning: "A nested stack's rollback failed, so its parent's is refused.",
  },
  ROLLBACK_NESTED_VIA_PARENT: {
    exitCode: 1,
    meaning: "A nested stack's rollback must run through its top-level stack, whose lock a deploy holds.",
  },
  ROLLBACK_NO_BASELINE: {
    exitCode: 1,
    meaning: 'The journal holds no pre-deploy record to revert an operation to.',
  },
  ROLLBACK_REDACTED_BASELINE: {
    exitCode: 1,
    meaning: 'The pre-deploy value to restore is a NoEcho value that cannot be read back.',
  },
  ROLLBACK_REPLACEMENT_UNROUTABLE: {
    exitCode: 1,
    meaning: 'A journaled replacement names no old type, or two, so it cannot be reversed.',
  },
  ROLLBACK_SECRET_REGION_UNKNOWN: {
    exitCode: 1,
    meaning: 'A secret reference names no region and a direct nested-stack rollback cannot tell it.',
  },
  ROLLBACK_STACK_REQUIRED: {
    exitCode: 1,
    meaning: 'Several stacks have a rollback journal and rollback was told none.',
  },
  ROLLBACK_UNADDRESSABLE: {
    exitCode: 1,
    meaning: 'A journaled operation names no resource cdkd can address.',
  },
  RULE_ASSERTION_FAILED: { exitCode: 1, meaning: "A template Rule's assertion failed." },
  RULE_FUNCTION_UNAVAILABLE: {
    exitCode: 1,
    meaning: 'A template Rule uses a function cdkd cannot evaluate.',
  },
  SANDBOX_INVALID_OPTION: { exitCode: 1, meaning: 'A sandbox flag has an invalid value.' },
  SANDBOX_PORT_IN_USE: { exitCode: 1, meaning: "The sandbox's port is already in use." },
  SDK_PROVIDER_MISSING: { exitCode: 1, meaning: 'No SDK provider is registered for a type routed to one.' },
  SECRET_KEY_NOT_FOUND: {
    exitCode: 1,
    meaning: 'A secret reference names a JSON key the secret does not have.',
  },
  SECRET_NOT_FOUND: { exitCode: 1, meaning: 'A secret reference names a secret that does not exist.' },
  SECRET_TEMPLATE_INVALID: {
    exitCode: 1,
    meaning: 'GenerateSecretString has only one of SecretStringTemplate and GenerateStringKey.',
  },
  SECRET_VALUE_CONFLICT: { exitCode: 1, meaning: 'A secret has both SecretString and GenerateSecretString.' },
  SSM_PARAMETER_NOT_FOUND: { exitCode: 1, meaning: 'An SSM parameter the template reads does not exist.' },
  SSM_PARAMETER_UNRESOLVED: {
    exitCode: 1,
    meaning: 'An SSM parameter-typed template parameter could not be resolved.',
  },
  STACKS_FAILED: { exitCode: 1, meaning: 'Several stacks failed, with different codes.' },
  STACK_DEPENDENCY_CYCLE: { exitCode: 1, meaning: "The app's stacks depend on each other in a cycle." },
  STACK_NAME_INVALID: { exitCode: 1, meaning: "A stack name breaks CloudFormation's naming rules." },
  STACK_NOT_FOUND: { exitCode: 1, meaning: 'No stack matches the name or pattern given.' },
  STACK_NOT_IN_STATE: { exitCode: 1, meaning: 'The state holds no stack of that name.' },
  STACK_REGION_AMBIGUOUS: {
    exitCode: 1,
    meaning: 'A stack has state in several regions and none was chosen.',
  },
  STACK_SELECTION_REQUIRED: { exitCode: 1, meaning: 'The app has several stacks and none was chosen.' },
  STATEFUL_REPLACE_BLOCKED: {
    exitCode: 1,
    meaning: 'A deploy would replace stateful resources, destroying their data.',
  },
  STATE_BUCKET_ACCESS_DENIED: { exitCode: 1, meaning: 'Access to the state bucket was denied.' },
  STATE_BUCKET_FAILED: { exitCode: 1, meaning: 'A call to the state bucket failed.' },
  STATE_BUCKET_NOT_FOUND: { exitCode: 1, meaning: 'The state bucket does not exist.' },
  STATE_BUCKET_UNAVAILABLE: { exitCode: 1, meaning: 'The state bucket could not be reached.' },
  STATE_BUCKET_WRONG_REGION: {
    exitCode: 1,
    meaning: 'The state bucket is not in the region cdkd used to reach it.',
  },
  STATE_CONFLICT: {
    exitCode: 1,
    meaning: "Another writer changed a state document between cdkd's read and write.",
  },
  STATE_DOCUMENT_FOREIGN: { exitCode: 1, meaning: 'A state document names another stack.' },
  STATE_DOCUMENT_INVALID: {
    exitCode: 1,
    meaning: 'A state document is torn, hand-edited or of the wrong shape.',
  },
  STATE_PREFIX_INVALID: { exitCode: 1, meaning: '--state-prefix cannot hold state.' },
  STATE_VERSION_UNSUPPORTED: { exitCode: 1, meaning: 'A state document was written by a newer cdkd.' },
  SYNTH_FAILED: { exitCode: 1, meaning: 'The app could not be run or failed while synthesizing.' },
  TEMPLATE_EVALUATION_ERROR: { exitCode: 1, meaning: 'A template expression could not be evaluated.' },
  TEMPLATE_INVALID: {
    exitCode: 1,
    meaning: 'A template or its evaluated properties break the resource schema.',
  },
  TEMPLATE_PARSE_ERROR: { exitCode: 1, meaning: 'A template is not valid JSON or YAML.' },
  TEMPLATE_PATH_ESCAPES: {
    exitCode: 1,
    meaning: "A stack's template file resolves outside the output directory.",
  },
  TRANSFORM_UNSUPPORTED: { exitCode: 1, meaning: 'A stack uses a transform only CloudFormation can expand.' },
  UI_INVALID_OPTION: { exitCode: 1, meaning: 'A ui flag has an invalid value.' },
  UI_NOT_BUILT: { exitCode: 1, meaning: "The cdkd page's files are missing." },
  UNKNOWN_DEPENDENCY: {
    exitCode: 1,
    meaning: 'A resource depends on a logical id the template does not deploy.',
  },
  UNKNOWN_INTRINSIC: { exitCode: 1, meaning: 'A template uses an intrinsic function cdkd does not know.' },
  UNSUPPORTED_RESOURCE_TYPE: {
    exitCode: 1,
    meaning: 'A resource type has no SDK provider and Cloud Control does not support it.',
  },
  UPDATE_ROLLBACK_FAILED: {
    exitCode: 1,
    meaning: "The stack's last rollback failed, so a new deploy is refused until it is resolved.",
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}

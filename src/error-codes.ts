/**
 * Every code a CdkdError (or a rollback refusal) carries, the spec's codes and cdkd's own, with
 * what it means. `ErrorCode` is derived from the keys, so a code missing here fails to compile;
 * the README's error-code list is generated from this object (`npm run docs:errors`).
 */
export const ERROR_CODES = {
  ACCOUNT_INVALID: '--account is not a 12-digit AWS account id.',
  ACCOUNT_MISMATCH: 'A stack names an account other than the one the credentials in use belong to.',
  AMBIGUOUS_CREATE_NAME_TAKEN:
    'A create whose answer was lost was sent again and found its name taken: the first attempt may have made the resource.',
  APP_MISSING: 'No CDK app to run: no --app, no CDKD_APP and no "app" in cdk.json.',
  APP_NOT_FOUND: '--app names a directory or file that does not exist.',
  APPROVAL_SETTING_INVALID: 'CDKD_REQUIRE_APPROVAL names no --require-approval level.',
  APPROVAL_REQUIRED:
    'A deploy needs approval under --require-approval (permissions widen, or any change) and there is no terminal to ask on.',
  ASSEMBLY_HAS_ERRORS: 'The app reported error annotations while synthesizing.',
  ASSEMBLY_HAS_WARNINGS: 'The app reported warning annotations and --strict is on.',
  ASSEMBLY_MALFORMED:
    "The cloud assembly breaks its schema's rules (a nested assembly points back, a field is missing ...).",
  ASSEMBLY_NOT_FOUND: '--app names a directory that holds no manifest.json.',
  ASSEMBLY_VERSION_UNSUPPORTED: 'The cloud assembly was written by a newer CDK than cdkd reads.',
  ASSET_BUCKET_ACCESS_DENIED: 'Access to the asset bucket was denied.',
  ASSET_BUCKET_NOT_FOUND: 'The asset bucket does not exist.',
  ASSET_BUCKET_WRONG_REGION: 'The asset bucket is not in the region being deployed to.',
  ASSET_BUILD_COMMAND_FAILED: "An asset's build command (executable) failed or printed no usable output.",
  ASSET_DESTINATION_REFUSED:
    'An image asset names a repository not shaped like a CDK bootstrap repository of the account and region deployed to.',
  ASSET_NOT_FOUND: "An asset's file or directory is missing from the cloud assembly.",
  ASSET_PATH_ESCAPES: "An asset's path resolves outside the cloud assembly's output directory.",
  ASSET_SOURCE_MISMATCH: "An asset's packaging says file or directory and its path is the other.",
  ASSET_SYMLINK_BROKEN: 'An asset directory holds a symlink whose target does not exist.',
  ASSET_SYMLINK_LOOP: 'An asset directory holds a symlink back to a directory containing it.',
  ASSET_UNSUPPORTED_ENTRY: 'An asset directory holds a socket, FIFO or device, which cannot be zipped.',
  ASSET_UPLOAD_FAILED: 'Uploading an asset to the asset bucket failed.',
  ATTRIBUTE_UNAVAILABLE: 'A template reads an attribute the state does not record for that resource.',
  BOOTSTRAP_OPTION_INVALID:
    'A cdkd bootstrap option (--trust, --execution-policies, --qualifier, --tags ...) has a value it cannot use.',
  BOOTSTRAP_TARGET_INVALID:
    'cdkd bootstrap was given an environment that is not aws://ACCOUNT/REGION, or one these credentials do not act in.',
  BUCKET_NAME_INVALID: 'A bucket name given to cdkd is not a valid S3 bucket name.',
  BUCKET_NAME_TAKEN: "cdkd's bucket exists but this account cannot use it.",
  CANCELLED: 'A confirmation was refused or cancelled; nothing was changed (130 when cancelled with Ctrl+C).',
  CC_IDENTIFIER_UNVERIFIED:
    'A move to Cloud Control needs an identifier mapping cdkd has not verified for the type.',
  CC_OPERATION_TIMEOUT: 'A Cloud Control operation did not finish within its deadline.',
  CC_STATUS_UNREACHABLE: "Cloud Control could not be reached while waiting for an operation's status.",
  CDK_JSON_INVALID: 'cdk.json is not valid JSON or holds a field of the wrong shape.',
  CLOUDFORMATION_EXPORTS_UNREADABLE:
    "CloudFormation's exports or importers (ListExports, ListImports) could not be read where a deploy needs them.",
  CONDITION_CYCLE: "The template's conditions refer to each other in a cycle.",
  CONFIRMATION_REQUIRED: 'A command needs a confirmation and there is no terminal to ask on.',
  CONTAINER_CLI_FAILED: 'The container CLI building, tagging, logging in or pushing an image asset failed.',
  CONTAINER_CLI_NOT_FOUND:
    'The container CLI (docker, or CDK_DOCKER) that builds image assets is not on the PATH.',
  CONTAINER_REGISTRY_FAILED: 'An ECR call for an image asset (login, image lookup, repository) failed.',
  CONTEXT_FILE_INVALID: 'cdk.context.json is not valid JSON or not a JSON object.',
  CA_BUNDLE_UNREADABLE: '--ca-bundle-path or AWS_CA_BUNDLE names a file that cannot be read.',
  CONTEXT_KEY_NOT_FOUND: 'cdkd context names a key the context cache does not hold.',
  CONTEXT_KEY_RESERVED: '-c sets a context key starting with "aws:", which the CDK reserves.',
  CONTEXT_LOOKUPS_DISABLED: 'The app needs context lookups and --no-lookups is on.',
  CONTEXT_LOOKUP_FAILED: 'A context lookup found nothing or failed.',
  CONTEXT_LOOKUP_LOOP: 'The app kept reporting missing context after repeated runs.',
  CONTEXT_LOOKUP_UNSUPPORTED: 'The app needs a context lookup cdkd cannot answer.',
  CREATE_ONLY_DROP_NEEDS_REPLACEMENT:
    'Sending a create-only property an earlier SDK-route deploy left unsent would replace the resource; cdkd refuses to do that on its own.',
  CREDENTIALS_EXPIRED: 'The session credentials in use (an MFA session, an assumed role, SSO) have expired.',
  CREDENTIALS_UNAVAILABLE: 'cdkd could not find out which AWS account the credentials belong to.',
  CREDENTIAL_PROCESS_FAILED:
    'The credential_process a profile names failed or printed no usable credentials.',
  CROSS_ENVIRONMENT_REFERENCE:
    'A stack imports an export the app declares only in another account or region, where the import cannot read it.',
  CUSTOM_RESOURCE_BAD_RESPONSE:
    "A custom resource handler's response breaks CloudFormation's response rules.",
  CUSTOM_RESOURCE_FAILED: 'A custom resource handler answered FAILED.',
  CUSTOM_RESOURCE_RETRIES_INVALID: 'CDKD_CR_AUTHZ_MAX_RETRIES is not a whole number.',
  CUSTOM_RESOURCE_SERVICE_TIMEOUT:
    "A custom resource's ServiceTimeout is not a whole number of seconds from 1 to 3600.",
  CUSTOM_RESOURCE_SERVICE_TOKEN:
    "A custom resource's ServiceToken is missing or names no function or topic cdkd can deliver to.",
  CUSTOM_RESOURCE_TIMEOUT: 'A custom resource handler did not answer within its ServiceTimeout.',
  DELETION_PROTECTED: 'AWS refuses to delete a resource whose deletion protection is on.',
  DEPENDENCY_CYCLE: "The template's resources depend on each other in a cycle.",
  DEPLOY_FAILED: "A stack's deploy failed (after its automatic rollback, where one ran).",
  DESTROY_FAILED: "A stack's destroy failed or was interrupted; state keeps what is left.",
  DESTROY_ORPHAN_UNKNOWN: 'destroy --orphan names a resource neither the state nor the journal records.',
  DRIFT_FLAGS_CONFLICT: 'drift --accept and --revert were both given.',
  DRIFT_SELECTION_CONFLICT: 'drift --all and stack names were both given.',
  DRIFT_STACK_REQUIRED: 'The state holds several stacks and drift was told none.',
  DYNAMODB_WAIT_TIMEOUT: 'A DynamoDB table did not become ACTIVE or deleted within 30 minutes.',
  EC2_NAT_GATEWAY_FAILED: 'EC2 reported a new NAT gateway failed (its failure code and message say why).',
  EC2_WAIT_TIMEOUT: 'A NAT gateway did not become available or deleted within 30 minutes.',
  EXPORT_CLOUDFORMATION_FAILED:
    'CloudFormation did not take over the stack cdkd export handed it; cdkd still manages it.',
  EXPORT_IMPORTS_CDKD_EXPORT:
    'cdkd export was asked for a stack that imports an export of a stack cdkd still manages; that one goes first.',
  EXPORT_IN_USE:
    'A deploy would remove or change exports other stacks (cdkd or CloudFormation) still import.',
  EXPORT_JOURNAL_PRESENT: 'cdkd export was not confirmed for a stack that has a rollback journal.',
  EXPORT_NAME_AMBIGUOUS:
    'An imported export name is exported both by a cdkd stack and by a CloudFormation stack; neither is picked.',
  EXPORT_NAME_TAKEN: 'A stack exports a name another stack already exports.',
  EXPORT_NESTED_STACK: 'The stack to export is a nested stack; it is handed over with its root stack only.',
  EXPORT_NOT_IMPORTABLE:
    'cdkd export found a resource type CloudFormation cannot import (or nested stacks two levels deep) and changed nothing.',
  EXPORT_NO_TEMPLATE:
    "The stack's state records no deployed template, so cdkd export has nothing to give CloudFormation.",
  EXPORT_STACK_NOT_FOUND: 'cdkd export names a stack cdkd holds no state for.',
  GC_RUN_IN_FLIGHT: 'cdkd gc refused: a stack in the state bucket holds a lock (a run in flight).',
  HTML_FILE_FAILED: 'The --html file could not be written.',
  IAM_POLICY_CLEANUP_FAILED: "An IAM policy's create failed and detaching what it attached failed too.",
  IAM_POLICY_NO_TARGET: 'An AWS::IAM::Policy names no group, role or user.',
  IMPORT_ALREADY_MANAGED: 'import names a logical id whose state already records a physical id.',
  IMPORT_CDKD_BUCKET: "import names cdkd's own state or asset bucket, which it never adopts.",
  IMPORT_DUPLICATE: 'import --resource names one logical id twice.',
  IMPORT_DUPLICATE_RESOURCE: 'import --resource gives one physical id to two logical ids.',
  IMPORT_FLAGS_CONFLICT:
    'import was given resources more than one way (--resource, a mapping, --migrate-from-cloudformation).',
  IMPORT_ID_INVALID: 'An imported physical id is not of the form cdkd identifies the type by.',
  IMPORT_JOURNAL_UNAVAILABLE:
    "The stack's rollback journal could not be read or written, so nothing was imported.",
  IMPORT_MAPPING_IDENTIFIER:
    "A resource mapping identifies a resource by properties other than its type's identifier.",
  IMPORT_MAPPING_INVALID: 'A resource mapping file or inline JSON cannot be read, parsed, or written.',
  IMPORT_MANAGED_ELSEWHERE: 'An imported resource already belongs to another cdkd stack.',
  IMPORT_NAME_MISMATCH: 'The template names the resource differently from the physical id given to import.',
  IMPORT_NOT_FOUND: 'Fn::ImportValue names an export no stack provides.',
  IMPORT_OWNER_UNKNOWN:
    "Another stack's state could not be read, so cdkd cannot tell whether it already manages the import.",
  IMPORT_RESOURCE_NOT_FOUND: 'The resource to import does not exist or cannot be read.',
  IMPORT_RESOURCE_SYNTAX: 'An import --resource value is not <logicalId>=<physicalId>.',
  IMPORT_UNKNOWN_RESOURCE: 'import names a logical id the stack does not declare.',
  INTERRUPTED: "A signal stopped the command (exit 130 where the command's signal rule says so).",
  INVALID_REFERENCE: 'A Ref or Fn::GetAtt names something the template does not declare.',
  LIVE_ATTRIBUTE_UNRESOLVED: 'An attribute that must be read live from AWS could not be read.',
  LOCAL_API_NOT_FOUND:
    'cdkd local start-api, start-alb or start-cloudfront names a stack with nothing to serve, or no such stack.',
  LOCAL_CODE_UNAVAILABLE:
    'cdkd local invoke finds no code for the function on this machine (no inline code, no asset directory).',
  LOCAL_CONTAINER_ENGINE_MISSING:
    'cdkd local --container or start-service needs a container engine (CDK_DOCKER, docker, podman) that is not on the PATH.',
  LOCAL_CONTAINER_FAILED: 'The container engine could not run the function in its Lambda base image.',
  LOCAL_EVENT_INVALID: 'The event for cdkd local invoke is not readable or not JSON.',
  LOCAL_FUNCTION_NOT_FOUND: 'cdkd local invoke names a stack or function the app does not have.',
  LOCAL_PORT_IN_USE: 'cdkd local start-api cannot listen on the port it was given: another program holds it.',
  LOCAL_PORT_INVALID: 'cdkd local start-api --port is not a port number.',
  LOCAL_REPLICAS_INVALID: 'cdkd local start-service --replicas is not a whole number from 1 up.',
  LOCAL_RUNTIME_UNSUPPORTED:
    'cdkd local invoke runs Node.js and Python handlers; the function has another runtime, or python3 is missing.',
  LOCAL_SERVICE_NOT_FOUND: 'cdkd local start-service names no ECS service of the app, or several match.',
  LOCAL_SERVICE_PORTS_COLLIDE:
    "cdkd local start-service would publish one host port for two of the service's replicas.",
  LOCAL_SERVICE_SECRETS_UNAVAILABLE:
    "cdkd local start-service runs a task whose secrets' values exist only in the deployed stack, which cannot be read.",
  LOCAL_SERVICE_UNRESOLVED:
    'cdkd local start-service finds a value of the task definition (an image, a variable, a secret) it cannot resolve locally.',
  LOCK_CHANGED: "The stack's lock changed after force-unlock showed it.",
  LOCK_HELD: "Another writer holds the stack's lock.",
  LOCK_HOLDER_RUNNING: "force-unlock found the lock's holder still running on this host.",
  LOG_RETENTION_INVALID: "A log group's RetentionInDays is not a value CloudFormation takes.",
  MFA_CODE_REQUIRED: "A profile's role needs an MFA code and there is no terminal to ask for it on.",
  MIGRATE_CLOUDFORMATION_FAILED:
    'A migration step did not bring the CloudFormation stack to the status it waited for; cdkd has recorded it all.',
  MIGRATE_EXPORTS_IMPORTED:
    'Other CloudFormation stacks import exports of the stack to migrate, and --force was not given.',
  MIGRATE_NESTED_STACK: 'The stack to migrate is a nested stack; it moves with its root stack only.',
  MIGRATE_STACK_NOT_FOUND: 'CloudFormation holds no stack of that name, and cdkd has recorded none.',
  MIGRATE_STACK_STATUS:
    'The CloudFormation stack is in a status it cannot be taken over from (in progress, failed, rolled back).',
  MIGRATE_TEMPLATE_MISMATCH:
    "The CloudFormation stack holds a resource the app's stack does not declare (same logical id and type).",
  NAMED_CREATE_COLLISION: "A resource's name is already taken by a resource cdkd does not manage.",
  NAMED_REPLACEMENT_COLLISION:
    'A replacement would create the new copy under the name the old one still holds.',
  NAMED_REPLACEMENT_IDEMPOTENT_CREATE: 'A create-first replacement got back the resource being replaced.',
  NESTED_STACK_CYCLE: 'Nested stacks include each other in a cycle.',
  NESTED_STACK_TOO_DEEP: 'Nested stacks are more than 512 levels deep.',
  NESTED_STACK_TOO_MANY: 'A nested stack tree has more than 10,000 stack rows.',
  NESTED_TEMPLATE_MISSING: "A nested stack's template file is missing.",
  NESTED_TEMPLATE_NOT_FOUND: 'No template was found in the cloud assembly for a nested stack.',
  NESTED_TEMPLATE_PATH_ABSOLUTE: "A nested stack's aws:asset:path is absolute.",
  NESTED_TEMPLATE_PATH_ESCAPES: "A nested stack's template path leaves the output directory.",
  NOTIFICATION_ARN_INVALID:
    "A notification ARN (--notification-arns, or a stack's notificationArns) is not an SNS topic ARN.",
  NOTIFICATION_TOPIC_NOT_FOUND:
    "A stack's notification topic does not exist or cannot be read; the deploy did not start.",
  NO_ECHO_DATA_MISSING: "A NoEcho value's stored data is missing or unreadable.",
  NO_STACKS: 'The cloud assembly contains no stacks.',
  ORPHAN_JOURNALED: 'orphan names resources the rollback journal still holds operations on.',
  ORPHAN_REFERENCED: 'Other resources still reference what orphan would remove from state.',
  ORPHAN_UNKNOWN_RESOURCE: 'orphan names a resource the stack does not record.',
  OUTPUTS_FILE_FAILED: 'The deploy succeeded but its outputs could not be written to --outputs-file.',
  OUTPUTS_FILE_INVALID: '--outputs-file names a directory.',
  PARAMETER_INVALID: "A parameter value breaks the parameter's type or constraints.",
  PARAMETER_MISSING: 'A parameter without a default was given no value.',
  PARAMETER_SYNTAX: 'A --parameters value is not KEY=VALUE or STACK:KEY=VALUE.',
  PARAMETER_UNKNOWN: 'A parameter value names a parameter the template does not declare.',
  PIN_CC_API_UNKNOWN_ID: '--pin-cc-api names a logical id no stack of the run declares.',
  PREFER_SDK_ROUTE_INVALID: '--prefer-sdk-route does not name a resource type and property.',
  PREFIX_SETTING_INVALID: 'CDKD_PREFIX_USER_SUPPLIED_NAMES is neither true nor false.',
  PROFILE_NOT_FOUND: 'The AWS profile named is in neither the AWS config file nor the credentials file.',
  RECREATE_FLAGS_CONFLICT:
    'One logical id is named by both --recreate-via-cc-api and --recreate-via-sdk-provider.',
  RECREATE_LAYER_UNAVAILABLE: 'A resource cannot be re-created through the layer asked for.',
  RECREATE_VIA_UNKNOWN_ID: 'A --recreate-via flag names a logical id no stack of the run declares.',
  REGION_INVALID: 'A configured region is not an AWS region name.',
  REGION_MISSING: 'No AWS region is configured.',
  RESOURCE_FAILED: "A resource's create, update or delete failed.",
  RESOURCE_INDEX_INVALID: 'The generated resource schema index is not valid.',
  RESOURCE_INDEX_MISSING: 'The generated resource schema index is missing.',
  RESOURCE_NOT_MADE: 'A resource is referenced before it was made.',
  RESOURCE_WAIT_TIMEOUT:
    'A resource did not reach the state CloudFormation waits for (a function Active, a service stable) in time.',
  ROLE_NOT_ASSUMABLE:
    "A role cdkd must act through (another account's deploy role, --role-arn) refused the credentials in use: not trusted, or no such role.",
  ROLLBACK_DROP_REFUSED: 'rollback --drop-failed refuses to drop the failed operations.',
  ROLLBACK_FLAGS_CONFLICT: 'rollback --drop-failed was given with --revert-failed, --orphan or --force.',
  ROLLBACK_NAME_COLLISION: 'Reversing a replacement would need a name that is still taken.',
  ROLLBACK_NAME_HELD_BY_RETAINED: 'Reversing a replacement needs a name a retained copy still holds.',
  ROLLBACK_NESTED_FAILED: "A nested stack's rollback failed, so its parent's is refused.",
  ROLLBACK_NESTED_VIA_PARENT:
    "A nested stack's rollback must run through its top-level stack, whose lock a deploy holds.",
  ROLLBACK_NO_BASELINE: 'The journal holds no pre-deploy record to revert an operation to.',
  ROLLBACK_REDACTED_BASELINE: 'The pre-deploy value to restore is a NoEcho value that cannot be read back.',
  ROLLBACK_REPLACEMENT_UNROUTABLE:
    'A journaled replacement names no old type, or two, so it cannot be reversed.',
  ROLLBACK_SECRET_REGION_UNKNOWN:
    'A secret reference names no region and a direct nested-stack rollback cannot tell it.',
  ROLLBACK_STACK_REQUIRED: 'Several stacks have a rollback journal and rollback was told none.',
  ROLLBACK_UNADDRESSABLE: 'A journaled operation names no resource cdkd can address.',
  RULE_ASSERTION_FAILED: "A template Rule's assertion failed.",
  RULE_FUNCTION_UNAVAILABLE: 'A template Rule uses a function cdkd cannot evaluate.',
  SAVED_PLAN_INVALID:
    'A plan file given to deploy --plan cannot be read, is not a saved plan, or was written in another format version.',
  SAVED_PLAN_STACKS_MISMATCH:
    'deploy --plan selected stacks the plan file does not hold, or the file holds stacks not selected.',
  SAVED_PLAN_STALE:
    "Since cdkd diff --out saved the plan, a stack's state, template, parameters or flags (or the plan made from them) changed.",
  SANDBOX_INVALID_OPTION: 'A sandbox flag has an invalid value.',
  SANDBOX_PORT_IN_USE: "The sandbox's port is already in use.",
  SDK_PROVIDER_MISSING: 'No SDK provider is registered for a type routed to one.',
  SECRET_KEY_NOT_FOUND: 'A secret reference names a JSON key the secret does not have.',
  SECRET_NOT_FOUND: 'A secret reference names a secret that does not exist.',
  SECRET_TEMPLATE_INVALID: 'GenerateSecretString has only one of SecretStringTemplate and GenerateStringKey.',
  SECRET_VALUE_CONFLICT: 'A secret has both SecretString and GenerateSecretString.',
  SSM_PARAMETER_NOT_FOUND: 'An SSM parameter the template reads does not exist.',
  SSM_PARAMETER_UNRESOLVED: 'An SSM parameter-typed template parameter could not be resolved.',
  SSO_SESSION_EXPIRED:
    'The IAM Identity Center (SSO) session of the profile in use has expired or was never started.',
  STACKS_FAILED: 'Several stacks failed, with different codes.',
  STACK_DEPENDENCY_CYCLE: "The app's stacks depend on each other in a cycle.",
  STACK_NAME_INVALID: "A stack name breaks CloudFormation's naming rules.",
  STACK_NOT_FOUND: 'No stack matches the name or pattern given.',
  STACK_NOT_IN_STATE: 'The state holds no stack of that name.',
  STACK_REGION_AMBIGUOUS: 'A stack has state in several regions and none was chosen.',
  STACK_SELECTION_REQUIRED: 'The app has several stacks and none was chosen.',
  STATEFUL_REPLACE_BLOCKED: 'A deploy would replace stateful resources, destroying their data.',
  STATE_BUCKET_ACCESS_DENIED: 'Access to the state bucket was denied.',
  STATE_BUCKET_FAILED: 'A call to the state bucket failed.',
  STATE_BUCKET_NOT_FOUND: 'The state bucket does not exist.',
  STATE_BUCKET_UNAVAILABLE: 'The state bucket could not be reached.',
  STATE_BUCKET_WRONG_REGION: 'The state bucket is not in the region cdkd used to reach it.',
  STACK_TERMINATION_PROTECTED: 'destroy names a stack whose app turns termination protection on.',
  STATE_CONFLICT: "Another writer changed a state document between cdkd's read and write.",
  STATE_DOCUMENT_FOREIGN: 'A state document names another stack.',
  STATE_DOCUMENT_INVALID: 'A state document is torn, hand-edited or of the wrong shape.',
  STATE_HISTORY_INVALID: '--state-history is not a number of versions from 1 to 100.',
  STATE_PREFIX_INVALID: '--state-prefix cannot hold state.',
  STATE_VERSION_UNSUPPORTED: 'A state document was written by a newer cdkd.',
  SYNTH_FAILED: 'The app could not be run or failed while synthesizing.',
  TAGS_SYNTAX: 'A deploy --tags value is not KEY=VALUE.',
  TEMPLATE_EVALUATION_ERROR: 'A template expression could not be evaluated.',
  TEMPLATE_INVALID: 'A template or its evaluated properties break the resource schema.',
  TEMPLATE_PARSE_ERROR: 'A template is not valid JSON or YAML.',
  TEMPLATE_PATH_ESCAPES: "A stack's template file resolves outside the output directory.",
  TLS_CERTIFICATE_UNTRUSTED:
    "The AWS endpoint's TLS certificate is not trusted (a proxy or endpoint signing with an organisation's CA needs --ca-bundle-path).",
  TRANSFORM_UNSUPPORTED: 'A stack uses a transform only CloudFormation can expand.',
  UI_INVALID_OPTION: 'A ui flag has an invalid value.',
  UI_NOT_BUILT: "The cdkd page's files are missing.",
  UNDO_ASSETS_GONE: 'cdkd undo refused: an asset the generation reads is no longer in the asset bucket.',
  UNDO_GENERATION_NOT_FOUND:
    'cdkd undo --to names a generation the state bucket does not keep (or cannot read).',
  UNDO_JOURNAL_PENDING: 'cdkd undo refused: the stack has a rollback journal to settle first.',
  UNDO_NESTED_STACKS:
    'cdkd undo refused: the generation holds nested stacks, which undo does not restore yet.',
  UNDO_NO_PREVIOUS_GENERATION: 'cdkd undo found no earlier generation of the stack to return to.',
  UNDO_PARAMETER_MASKED:
    'cdkd undo refused: a NoEcho parameter of the generation is kept masked; pass its value.',
  UNKNOWN_DEPENDENCY: 'A resource depends on a logical id the template does not deploy.',
  UNKNOWN_INTRINSIC: 'A template uses an intrinsic function cdkd does not know.',
  UNSUPPORTED_RESOURCE_TYPE: 'A resource type has no SDK provider and Cloud Control does not support it.',
  UPDATE_ROLLBACK_FAILED:
    "The stack's last rollback failed, so a new deploy is refused until it is resolved.",
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

import { SandboxError } from '../../errors.js';
import {
  optionalString,
  jsonCodec,
  jsonInput,
  jsonOperation,
  jsonResult,
  requiredString,
} from '../../protocols/json.js';
import { deliverChecked } from '../../policy/delivery-check.js';
import { stateMachineStarter } from '../../ports/index.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { Executions, historyView, type ExecutionRecord } from './executions.js';
import { machineOperations } from './machine-api.js';
import { findMachine } from './machines.js';

const TARGET_PREFIX = 'AWSStepFunctions';
const MUTATING = new Set([
  'StartExecution',
  'StartSyncExecution',
  'StopExecution',
  'CreateStateMachine',
  'UpdateStateMachine',
  'DeleteStateMachine',
  'TagResource',
  'UntagResource',
]);
const NAME = /^[A-Za-z0-9_-]{1,80}$/;

const errors = {
  machineMissing: (arn: string) =>
    new SandboxError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`, 400),
  executionMissing: (arn: string) =>
    new SandboxError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`, 400),
  invalidName: (name: string) => new SandboxError('InvalidName', `Invalid Name: '${name}'`, 400),
  invalidInput: () => new SandboxError('InvalidExecutionInput', 'Invalid State Machine Execution Input', 400),
  exists: (arn: string) =>
    new SandboxError('ExecutionAlreadyExists', `Execution Already Exists: '${arn}'`, 400),
  typeNotSupported: () =>
    new SandboxError(
      'StateMachineTypeNotSupported',
      'This operation is not supported by this type of state machine',
      400,
    ),
};

/**
 * Step Functions over JSON 1.0 (`AWSStepFunctions.<Op>`): the state-machine calls
 * (machine-api.ts) and executions (StartExecution, StartSyncExecution for express machines,
 * DescribeExecution, DescribeStateMachineForExecution, GetExecutionHistory, ListExecutions,
 * StopExecution), for the state machines Cloud Control holds. The interpreter (asl/) runs
 * them on the sandbox's clock.
 */
export const createStepFunctionsService: ServiceModuleFactory = async (context) => {
  const executions = await Executions.load(context);
  const machineFor = (accountId: string) => (arn: string) => findMachine(context, arn, accountId);
  const view = (record: ExecutionRecord) => ({
    executionArn: record.arn,
    stateMachineArn: record.machineArn,
    name: record.name,
    status: record.status,
    startDate: record.startDate / 1000,
    ...(record.stopDate !== undefined ? { stopDate: record.stopDate / 1000 } : {}),
    input: record.input,
    ...(record.output !== undefined ? { output: record.output } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
    ...(record.cause !== undefined ? { cause: record.cause } : {}),
  });
  stateMachineStarter.expose(context, {
    async start(arn, input, caller) {
      const machine = findMachine(context, arn, arn.split(':')[4] ?? context.accountId);
      let executionArn: string | undefined;
      const target = {
        arn,
        action: 'states:StartExecution',
        policy: undefined,
        exists: machine !== undefined,
      };
      const outcome = await deliverChecked(context, caller, target, async () => {
        executionArn = executions.start(machine!, input, undefined, machineFor(context.accountId)).record.arn;
      });
      return executionArn ? { ...outcome, executionArn } : outcome;
    },
  });

  const start = (input: Record<string, unknown>, accountId: string) => {
    const arn = requiredString(input, 'stateMachineArn');
    const machine = findMachine(context, arn, accountId);
    if (!machine) throw errors.machineMissing(arn);
    const name = optionalString(input, 'name');
    if (name !== undefined && !NAME.test(name)) throw errors.invalidName(name);
    const text = optionalString(input, 'input') ?? '{}';
    try {
      JSON.parse(text);
    } catch {
      throw errors.invalidInput();
    }
    if (name !== undefined) {
      const existing = executions.of(arn).find((e) => e.name === name);
      if (existing) throw errors.exists(existing.arn);
    }
    return { machine, ...executions.start(machine, text, name, machineFor(accountId)) };
  };
  const requireExecution = (input: Record<string, unknown>) => {
    const arn = requiredString(input, 'executionArn');
    const record = executions.get(arn);
    if (!record) throw errors.executionMissing(arn);
    return record;
  };

  const machines = machineOperations(context);

  const module: ServiceModule = {
    name: 'states',
    codec: jsonCodec('1.0'),
    operation: (request) => jsonOperation(request, TARGET_PREFIX),
    isMutating: (operation) => MUTATING.has(operation),
    async handle(request, operation) {
      const input = jsonInput(request);
      const machineOperation = machines[operation];
      if (machineOperation) {
        const call = { input, region: request.region, accountId: request.accountId };
        return jsonResult('1.0', await machineOperation(call));
      }
      switch (operation) {
        case 'StartExecution': {
          const { record } = start(input, request.accountId);
          return jsonResult('1.0', { executionArn: record.arn, startDate: record.startDate / 1000 });
        }
        case 'StartSyncExecution': {
          const arn = requiredString(input, 'stateMachineArn');
          if (findMachine(context, arn, request.accountId)?.type === 'STANDARD')
            throw errors.typeNotSupported();
          const { done } = start(input, request.accountId);
          const {
            executionArn,
            stateMachineArn,
            name,
            status,
            startDate,
            stopDate,
            input: given,
            output,
            error,
            cause,
          } = view(await done);
          return jsonResult('1.0', {
            executionArn,
            stateMachineArn,
            name,
            status,
            startDate,
            stopDate,
            input: given,
            output,
            error,
            cause,
          });
        }
        case 'DescribeExecution':
          return jsonResult('1.0', view(requireExecution(input)));
        case 'DescribeStateMachineForExecution': {
          const record = requireExecution(input);
          const { stateMachineArn, name, definition, roleArn } = (await machines.DescribeStateMachine!({
            input: { stateMachineArn: record.machineArn },
            region: request.region,
            accountId: request.accountId,
          })) as Record<string, unknown>;
          return jsonResult('1.0', {
            stateMachineArn,
            name,
            definition,
            roleArn,
            updateDate: record.startDate / 1000,
          });
        }
        case 'GetExecutionHistory': {
          const record = requireExecution(input);
          const events = record.history.map(historyView);
          if (input.reverseOrder === true) events.reverse();
          return jsonResult('1.0', { events });
        }
        case 'ListExecutions': {
          const arn = requiredString(input, 'stateMachineArn');
          if (!findMachine(context, arn, request.accountId)) throw errors.machineMissing(arn);
          const filter = optionalString(input, 'statusFilter');
          const listed = executions
            .of(arn)
            .filter((record) => filter === undefined || record.status === filter);
          return jsonResult('1.0', {
            executions: listed.map((record) => ({
              executionArn: record.arn,
              stateMachineArn: record.machineArn,
              name: record.name,
              status: record.status,
              startDate: record.startDate / 1000,
              ...(record.stopDate !== undefined ? { stopDate: record.stopDate / 1000 } : {}),
            })),
          });
        }
        case 'StopExecution': {
          const record = requireExecution(input);
          if (record.status === 'RUNNING') {
            await executions.stop(record, optionalString(input, 'error'), optionalString(input, 'cause'));
          }
          return jsonResult('1.0', { stopDate: (record.stopDate ?? context.clock.now()) / 1000 });
        }
        default:
          throw new SandboxError(
            'UnknownOperationException',
            `The cdkd sandbox does not serve Step Functions' ${operation}`,
            400,
          );
      }
    },
    inventory() {
      return {
        'AWS::StepFunctions::Execution': executions.all().map((record) => ({
          id: record.arn,
          stateMachineArn: record.machineArn,
          status: record.status,
        })),
      };
    },
  };
  return module;
};

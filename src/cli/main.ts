#!/usr/bin/env node
import './quiet-sdk-warnings.js';
import { Command, CommanderError } from 'commander';
import { guardOutputs } from './interrupts/closed-output.js';
import { addGlobalOptions, applyColorOption } from './options/global-options.js';
import { renderError } from './render/render-error.js';
import { registerBootstrap } from './commands/bootstrap.js';
import { registerState } from './commands/state.js';
import { registerForceUnlock } from './commands/force-unlock.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerSynth } from './commands/synth.js';
import { registerList } from './commands/list.js';
import { registerLocal } from './commands/local.js';
import { registerDeploy } from './commands/deploy.js';
import { registerDiff } from './commands/diff.js';
import { registerDestroy } from './commands/destroy.js';
import { registerRollback } from './commands/rollback.js';
import { registerEvents } from './commands/events.js';
import { registerContext } from './commands/context.js';
import { registerExport } from './commands/export.js';
import { registerImport } from './commands/import.js';
import { registerOrphan } from './commands/orphan.js';
import { registerDrift } from './commands/drift.js';
import { registerScrub } from './commands/scrub.js';
import { registerUi } from './commands/ui.js';
import { registerUndo } from './commands/undo.js';
import { registerGc } from './commands/gc.js';
import { registerPublishAssets } from './commands/publish-assets.js';
import { registerWatch } from './commands/watch.js';
import { CDKD_VERSION } from '../version.js';

export function buildProgram(): Command {
  const program = new Command('cdkd')
    .description('Deploy AWS CDK apps directly through AWS service APIs')
    .version(CDKD_VERSION)
    .exitOverride()
    // The one error line and where to look, not the whole help text.
    .showHelpAfterError('(run with --help for usage)')
    .hook('preAction', (_, command) => applyColorOption(command));
  addGlobalOptions(program);
  registerBootstrap(program);
  registerState(program);
  registerForceUnlock(program);
  registerSandbox(program);
  registerSynth(program);
  registerList(program);
  registerDeploy(program);
  registerDiff(program);
  registerDestroy(program);
  registerRollback(program);
  registerEvents(program);
  registerContext(program);
  registerImport(program);
  registerExport(program);
  registerOrphan(program);
  registerDrift(program);
  registerScrub(program);
  registerUi(program);
  registerUndo(program);
  registerPublishAssets(program);
  registerGc(program);
  registerLocal(program);
  registerWatch(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    const given = program.opts<{ verbose?: boolean; debug?: boolean }>();
    const verbose = given.verbose ?? given.debug ?? (argv.includes('--verbose') || argv.includes('--debug'));
    for (const line of renderError(error, verbose)) process.stderr.write(`${line}\n`);
    return isExitCoded(error) ? error.exitCode : 1;
  }
}

function isExitCoded(error: unknown): error is { exitCode: number } {
  return typeof (error as { exitCode?: unknown })?.exitCode === 'number';
}

guardOutputs();
void main(process.argv).then((code) => {
  process.exitCode = code;
});

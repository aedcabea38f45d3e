// The public face of src/cli/interrupts: Ctrl-C, signals and a closed output, as a run's abort reason.
export * from './closed-output.js';
export * from './interrupts.js';

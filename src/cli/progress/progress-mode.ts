import type { Progress } from './progress.js';

/** How a command shows its progress: the human view, or the JSON stream (`--progress`). */
export type ProgressMode = 'human' | 'events' | 'errors';

export interface ProgressView extends Progress {
  /** The run ended, with its error when it failed (the stream's last event). */
  ended(error?: unknown): void;
  /** Where the command's own text (outputs, plans) goes: stdout, or stderr while stdout streams. */
  text(chunk: string): void;
}

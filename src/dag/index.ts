export { walkDag, type WalkOutcome } from './walk.js';

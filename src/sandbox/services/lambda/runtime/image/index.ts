export { ImageFunctions } from './image-functions.js';

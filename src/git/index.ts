/** The git layer: the only code that runs git. Services import from here. */
export * from './run.js';
export * from './refs.js';
export * from './repo.js';
export * from './branches.js';
export * from './catfile.js';
export * from './smarthttp.js';
export * from './tags.js';
export * from './objects.js';
export * from './commits.js';
export * from './contents.js';
export * from './archive.js';
export * from './compare.js';
export * from './hooks.js';
export * from './template.js';

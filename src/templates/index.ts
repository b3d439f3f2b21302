// Lookups over the bundled repository templates (gitignore, licence, issue label sets).
//
// All lookups are exact, case-sensitive map lookups by template name. A name is never
// used as a path, so "../x", "Node/../Go" and the like simply find nothing.

import { gitignoreTemplates } from './gitignore.js';
import { labelTemplates, type LabelTemplate } from './labels.js';
import { licenseTemplates } from './licenses.js';

export type { LabelTemplate } from './labels.js';
export { gitignoreTemplates } from './gitignore.js';
export { labelTemplates } from './labels.js';
export { licenseTemplates } from './licenses.js';

/** Sorts names by UTF-16 code units (stable and locale-independent, like Go's sort.Strings on ASCII). */
function sortedKeys(map: ReadonlyMap<string, unknown>): string[] {
  return [...map.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function lookup<T>(map: ReadonlyMap<string, T>, name: string): T | undefined {
  // `typeof` guards callers that pass through unchecked input (e.g. a parsed query value).
  if (typeof name !== 'string' || name === '') return undefined;
  return map.get(name);
}

/** Names of all gitignore templates, sorted. */
export function listGitignoreNames(): string[] {
  return sortedKeys(gitignoreTemplates);
}

/** Text of the gitignore template `name`, or undefined when there is none. */
export function getGitignore(name: string): string | undefined {
  return lookup(gitignoreTemplates, name);
}

/** SPDX ids of all licence templates, sorted. */
export function listLicenseNames(): string[] {
  return sortedKeys(licenseTemplates);
}

/** Full text of the licence with SPDX id `name`, or undefined when there is none. */
export function getLicense(name: string): string | undefined {
  return lookup(licenseTemplates, name);
}

/** Names of all issue label sets, sorted (e.g. ["Advanced", "Default"]). */
export function listLabelTemplateNames(): string[] {
  return sortedKeys(labelTemplates);
}

/** Labels of the label set `name`, or undefined when there is none. */
export function getLabelTemplate(name: string): readonly LabelTemplate[] | undefined {
  return lookup(labelTemplates, name);
}

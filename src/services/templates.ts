import { notFound } from '../domain/errors.js';
import * as templates from '../templates/index.js';

/** Bundled gitignore, licence and label templates (read-only, in memory). */
export function createTemplateService() {
  return {
    gitignoreNames: () => templates.listGitignoreNames(),
    gitignore(name: string) {
      const source = templates.getGitignore(name);
      if (source === undefined) throw notFound();
      return { name, source };
    },
    licenseNames: () => templates.listLicenseNames(),
    license(name: string) {
      const body = templates.getLicense(name);
      if (body === undefined) throw notFound();
      return { name, body };
    },
    labelTemplateNames: () => templates.listLabelTemplateNames(),
    labelTemplate(name: string) {
      const labels = templates.getLabelTemplate(name);
      if (labels === undefined) throw notFound();
      return labels;
    },
  };
}

import { createAuthService } from './auth.js';
import type { ServiceDeps } from './context.js';
import { createEmailService } from './emails.js';
import { createFollowService } from './follows.js';
import { createKeyService } from './keys.js';
import { createSettingsService } from './settings.js';
import { createTemplateService } from './templates.js';
import { createTokenService } from './tokens.js';
import { createUserService } from './users.js';
import { createRepoService } from './repos.js';
import { createSocialService } from './social.js';
import { createBranchService } from './branches.js';
import { createGitHttpService } from './githttp.js';

export type { ServiceDeps } from './context.js';

export function createServices(deps: ServiceDeps) {
  const repos = createRepoService(deps);
  return {
    repos,
    social: createSocialService(deps, repos),
    branches: createBranchService(deps, repos),
    gitHttp: createGitHttpService(deps, repos),
    config: deps.config,
    auth: createAuthService(deps),
    users: createUserService(deps),
    tokens: createTokenService(deps),
    keys: createKeyService(deps),
    emails: createEmailService(deps),
    follows: createFollowService(deps),
    settings: createSettingsService(deps.config),
    templates: createTemplateService(),
  };
}

export type Services = ReturnType<typeof createServices>;

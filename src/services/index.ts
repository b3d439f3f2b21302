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
import { createContentService } from './contents.js';
import { createCommitService } from './commits.js';
import { createStatusService } from './statuses.js';
import { createTagService } from './tags.js';
import { createGitDataService } from './gitdata.js';
import { createForkService } from './forks.js';
import { createTransferService } from './transfers.js';
import { createGenerateService } from './generate.js';
import { createDeployKeyService } from './deploykeys.js';
import { createProtectionService } from './protections.js';
import { createArchiveService } from './archives.js';
import { createCodeInfoService } from './codeinfo.js';
import { createMarkupService } from './markup.js';
import { createMigrationService } from './migrations.js';
import { createOrgService } from './orgs.js';

import { createOutbox, type Outbox } from '../events/outbox.js';
import { createWebhookService } from './webhooks.js';
export type { ServiceDeps } from './context.js';

export function createServices(base: Omit<ServiceDeps, 'events'> & { readonly events?: Outbox }) {
  const deps: ServiceDeps = { ...base, events: base.events ?? createOutbox(base) };
  const repos = createRepoService(deps);
  const commits = createCommitService(deps, repos);
  const protections = createProtectionService(deps, repos);
  return {
    repos,
    commits,
    statuses: createStatusService(deps, repos, commits),
    social: createSocialService(deps, repos),
    branches: createBranchService(deps, repos),
    protections,
    gitHttp: createGitHttpService(deps, repos, protections),
    contents: createContentService(deps, repos, protections),
    tags: createTagService(deps, repos),
    gitData: createGitDataService(deps, repos),
    forks: createForkService(deps, repos),
    migrations: createMigrationService(deps, repos),
    transfers: createTransferService(deps, repos),
    generate: createGenerateService(deps, repos),
    deployKeys: createDeployKeyService(deps),
    archives: createArchiveService(deps, repos, commits),
    codeInfo: createCodeInfoService(deps, repos, commits),
    markup: createMarkupService(deps, repos),
    orgs: createOrgService(deps, repos),
    webhooks: createWebhookService(deps, repos),
    events: deps.events,
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

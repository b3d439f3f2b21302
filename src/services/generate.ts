import { AppError } from '../domain/errors.js';
import { DEFAULT_REPO_SETTINGS, repoNameProblem } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import * as reposDb from '../db/repos.js';
import * as socialDb from '../db/social.js';
import * as usersDb from '../db/users.js';
import * as orgsDb from '../db/orgs.js';
import { isValidBranchName } from '../git/refs.js';
import { initBare } from '../git/repo.js';
import { commitTemplateTree } from '../git/template.js';
import type { ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';
import { repositoryCreated } from './refevents.js';

export interface GenerateInput {
  readonly owner: string;
  readonly name: string;
  readonly description?: string | undefined;
  readonly private?: boolean | undefined;
  readonly defaultBranch?: string | undefined;
  readonly gitContent?: boolean | undefined;
  readonly topics?: boolean | undefined;
  readonly gitHooks?: boolean | undefined;
  readonly webhooks?: boolean | undefined;
  readonly avatar?: boolean | undefined;
  readonly labels?: boolean | undefined;
  readonly protectedBranch?: boolean | undefined;
}

export function createGenerateService(deps: ServiceDeps, repos: RepoService) {
  const { db, config } = deps;

  /**
   * Creates a repository from a template (Gitea's Generate + GenerateRepository). Items that do not exist
   * here yet (git hooks, webhooks, avatar, labels, branch protections) are accepted and copy nothing.
   * Create order as in RepoService.create: git directory under a temporary name, row (unique index decides
   * races), then the move to the id-based place; a failure removes what was made.
   */
  async function generate(template: RepoAccess, doer: User, input: GenerateInput): Promise<RepoAccess> {
    const tpl = template.repo;
    if (!tpl.isTemplate) throw new AppError('validation', 'this is not a template repo');
    const items = [input.gitContent, input.topics, input.gitHooks, input.webhooks, input.avatar, input.labels, input.protectedBranch];
    if (!items.some((x) => x === true)) throw new AppError('validation', 'must select at least one template item');
    let owner: User = doer;
    if (input.owner !== doer.name) {
      const found = await usersDb.getUserByName(db, input.owner);
      if (!found) {
        const message = `request owner \`${input.owner}\` does not exist`;
        // Gitea's body here is {"error": ...}; we send it besides the usual message and url.
        throw new AppError('not_found', message, { extra: { error: message } });
      }
      if (!doer.isAdmin && found.id !== doer.id) {
        if (!found.isOrganization) throw new AppError('forbidden', 'Only admin can generate repository for other user.');
        // Into an organization: Owners, or a team allowed to create repositories (Gitea's CanCreateOrgRepo).
        if (!(await orgsDb.canCreateOrgRepo(db, found.id, doer.id))) {
          throw new AppError('forbidden', 'Given user is not allowed to create repository in organization.');
        }
      }
      owner = found;
    }
    const problem = repoNameProblem(input.name);
    if (problem) throw new AppError('validation', problem);
    if ([...(input.description ?? '')].length > 2048) throw new AppError('validation', '[description]: MaxSize');
    const withContent = input.gitContent === true && !tpl.isEmpty;
    const requested = input.defaultBranch?.trim() ?? '';
    const defaultBranch = requested || (withContent ? tpl.defaultBranch : config.repository.defaultBranch);
    if (!isValidBranchName(defaultBranch)) throw new AppError('validation', `invalid default branch name: ${defaultBranch}`);
    const taken = () => new AppError('conflict', 'The repository with the same name already exists.');
    if (await reposDb.getRepoByName(db, owner.id, input.name)) throw taken();
    const topics = input.topics ? (await socialDb.listRepoTopics(db, tpl.id)).map((t) => t.name) : [];

    let committed = false;
    const objectFormat = tpl.objectFormatName === 'sha256' ? 'sha256' : 'sha1';
    const created = await repos.materialize(owner, input.name, {
      conflict: taken,
      async prepare(tmp) {
        await initBare(tmp, { defaultBranch, objectFormat });
        if (!withContent) return;
        // Gitea commits as the new repository's owner, with the message "Initial commit".
        const sha = await commitTemplateTree(repos.repoPath(tpl.id), tpl.defaultBranch, tmp, defaultBranch, {
          message: 'Initial commit',
          author: { name: owner.fullName || owner.name, email: owner.email, when: new Date(deps.clock()) },
        });
        committed = sha !== null;
      },
      async insert(trx, now) {
        const id = await reposDb.insertRepo(
          trx,
          owner.id,
          {
            name: input.name,
            description: input.description ?? '',
            defaultBranch,
            objectFormatName: objectFormat,
            trustModel: tpl.trustModel || 'default',
            isPrivate: input.private ?? false,
            isTemplate: false,
            isEmpty: !committed,
            templateId: tpl.id,
            numCommits: committed ? 1 : 0,
            settings: { ...DEFAULT_REPO_SETTINGS },
          },
          now,
        );
        if (topics.length) await socialDb.setRepoTopics(trx, id, topics, now);
        // Webhooks: as for a created repository (default hooks copied in, `repository created`).
        await repositoryCreated(deps, trx, id, owner, doer);
        return id;
      },
    });
    deps.events.wake();
    await repos.ensureCreatorAdmin(owner, created.repo.id, doer);
    return created;
  }

  return { generate };
}

export type GenerateService = ReturnType<typeof createGenerateService>;

import type { HandlerContext, Schemas } from '../kit.js';
import type { CreateRepoInput } from '../../services/repos.js';

// Helpers shared by several repository handlers (not operations themselves).

/** CreateRepoOption -> service input (shared by the user, admin and organization create operations). */
export function createRepoInput(b: Schemas['CreateRepoOption']): CreateRepoInput {
  return {
    name: b.name,
    description: b.description,
    private: b.private,
    autoInit: b.auto_init,
    gitignores: b.gitignores,
    license: b.license,
    readme: b.readme,
    issueLabels: b.issue_labels,
    defaultBranch: b.default_branch,
    template: b.template,
    trustModel: b.trust_model,
    objectFormatName: b.object_format_name,
  };
}

export async function listOwnedRepos(ctx: HandlerContext<'userCurrentListRepos' | 'userListRepos'>, ownerId: number) {
  return ctx.services.repos.search(
    ctx.actor,
    { ownerId, ownership: 'owned', orderBy: { column: 'id', desc: false } },
    ctx.paging(),
  );
}

/**
 * Template generation: the tree of a template repository's branch becomes the first commit of a
 * new repository, without any of the template's history (Gitea's generateRepoCommit, done with
 * plumbing instead of a clone and a working tree).
 */
import { branchRef, isFullSha } from './refs.js';
import { resolveFullRef, updateRef, type Signature } from './repo.js';
import { runGit } from './run.js';

function gitDate(s: Signature): string {
  return `@${Math.floor(s.when.getTime() / 1000)} ${s.timezone ?? '+0000'}`;
}

/**
 * Copies the tree of `refs/heads/<fromBranch>` in `templatePath` (the objects of that tree only)
 * into `targetPath` and commits it there as a root commit on `toBranch`, which must not exist yet.
 * Three git processes: `rev-list --objects` and `pack-objects` in the template, `index-pack` in
 * the target; then `commit-tree` and `update-ref`. Returns the new commit's sha, or null when the
 * template has no such branch.
 */
export async function commitTemplateTree(
  templatePath: string,
  fromBranch: string,
  targetPath: string,
  toBranch: string,
  opts: { message: string; author: Signature },
): Promise<string | null> {
  const tip = await resolveFullRef(templatePath, branchRef(fromBranch));
  if (tip === null) return null;
  const treeOut = (await runGit(['rev-parse', '--verify', '--end-of-options', `${tip}^{tree}`], { gitDir: templatePath })).stdout.toString('utf8').trim();
  if (!isFullSha(treeOut)) throw new Error(`unexpected tree id: ${treeOut}`);
  const listed = (await runGit(['rev-list', '--objects', '--end-of-options', treeOut], { gitDir: templatePath })).stdout.toString('utf8');
  const ids = listed
    .split('\n')
    .map((l) => l.slice(0, l.indexOf(' ') === -1 ? l.length : l.indexOf(' ')))
    .filter((id) => id.length > 0);
  const pack = (await runGit(['pack-objects', '--stdout', '-q'], { gitDir: templatePath, input: ids.join('\n') + '\n' })).stdout;
  await runGit(['index-pack', '--stdin'], { gitDir: targetPath, input: pack });
  const message = opts.message.endsWith('\n') ? opts.message : `${opts.message}\n`;
  const a = opts.author;
  const commit = (
    await runGit(['commit-tree', treeOut], {
      gitDir: targetPath,
      input: message,
      env: {
        GIT_AUTHOR_NAME: a.name,
        GIT_AUTHOR_EMAIL: a.email,
        GIT_AUTHOR_DATE: gitDate(a),
        GIT_COMMITTER_NAME: a.name,
        GIT_COMMITTER_EMAIL: a.email,
        GIT_COMMITTER_DATE: gitDate(a),
      },
    })
  ).stdout
    .toString('utf8')
    .trim();
  await updateRef(targetPath, branchRef(toBranch), commit, null);
  return commit;
}

import type { GitCommit } from '../git/commits.js';
import type { User } from './user.js';

/** A commit with the accounts its author and committer e-mail addresses belong to. */
export interface CommitView {
  readonly commit: GitCommit;
  readonly author: User | undefined;
  readonly committer: User | undefined;
}

import type { User } from './user.js';

/** Commit statuses: the states and how several of them combine (Gitea's CommitStatusState and CalcCommitStatus). */

export const COMMIT_STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** A stored status of one commit. */
export interface CommitStatusRecord {
  readonly id: number;
  /** 1, 2, ... per repository and commit; the id the API shows. */
  readonly index: number;
  readonly repoId: number;
  readonly sha: string;
  readonly state: string;
  readonly targetUrl: string;
  readonly description: string;
  readonly context: string;
  readonly creatorId: number;
  readonly createdUnix: number;
  readonly updatedUnix: number;
}

// Lower is worse: error < failure < warning < pending < success.
const PRIORITY: Readonly<Record<string, number>> = { error: 0, failure: 1, warning: 2, pending: 3, success: 4 };

/**
 * The combined state: the worst state among `states` (the latest status of each context). The first
 * one seeds the result and an unknown state never wins, as in Gitea's ToCombinedStatus.
 */
export function combinedState(states: readonly string[]): string {
  let result = '';
  for (const s of states) {
    const p = PRIORITY[s];
    const current = PRIORITY[result];
    if (result === '' || (p !== undefined && current !== undefined && p <= current)) result = s;
  }
  return result;
}

/** A status with the account that reported it (undefined when that account is gone). */
export interface StatusView {
  readonly status: CommitStatusRecord;
  readonly creator: User | undefined;
}

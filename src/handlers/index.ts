import type { Handler, OperationId } from './kit.js';
import * as adminEmails from './admin/emails.js';
import * as adminUsers from './admin/users.js';
import * as adminRepos from './admin/repos.js';
import * as repoRepos from './repository/repos.js';
import * as repoBranches from './repository/branches.js';
import * as repoProtections from './repository/protections.js';
import * as repoContents from './repository/contents.js';
import * as repoCommits from './repository/commits.js';
import * as repoStatuses from './repository/statuses.js';
import * as repoTopics from './repository/topics.js';
import * as repoCollaborators from './repository/collaborators.js';
import * as repoStars from './repository/stars.js';
import * as repoTags from './repository/tags.js';
import * as repoGitData from './repository/gitdata.js';
import * as repoForks from './repository/forks.js';
import * as repoTransfer from './repository/transfer.js';
import * as repoKeys from './repository/keys.js';
import * as repoHooks from './repository/hooks.js';
import * as adminHooks from './admin/hooks.js';
import * as userHooks from './user/hooks.js';
import * as repoArchives from './repository/archives.js';
import * as repoCompare from './repository/compare.js';
import * as repoDiffPatch from './repository/diffpatch.js';
import * as repoMigrate from './repository/migrate.js';
import * as userRepos from './user/repos.js';
import * as userStarred from './user/starred.js';
import * as templates from './miscellaneous/templates.js';
import * as version from './miscellaneous/version.js';
import * as markdown from './miscellaneous/markdown.js';
import * as settings from './settings/settings.js';
import * as current from './user/current.js';
import * as emails from './user/emails.js';
import * as follow from './user/follow.js';
import * as keys from './user/keys.js';
import * as userSettings from './user/settings.js';
import * as tokens from './user/tokens.js';
import * as users from './user/users.js';
import * as orgOrgs from './organization/orgs.js';
import * as orgMembers from './organization/members.js';
import * as orgTeams from './organization/teams.js';
import * as orgLabels from './organization/labels.js';
import * as orgHooks from './organization/hooks.js';
import * as repoTeams from './repository/teams.js';

/** Every operation's handler, by operationId; the type makes a missing or misnamed handler a compile error. */
export const handlers: { readonly [O in OperationId]: Handler<O> } = {
  ...adminEmails,
  ...adminUsers,
  ...adminRepos,
  ...repoRepos,
  ...repoArchives,
  ...repoCompare,
  ...repoDiffPatch,
  ...repoMigrate,
  ...repoBranches,
  ...repoProtections,
  ...repoContents,
  ...repoCommits,
  ...repoStatuses,
  ...repoTopics,
  ...repoCollaborators,
  ...repoStars,
  ...repoTags,
  ...repoGitData,
  ...repoForks,
  ...repoTransfer,
  ...repoKeys,
  ...repoHooks,
  ...adminHooks,
  ...userHooks,
  ...userRepos,
  ...userStarred,
  ...templates,
  ...version,
  ...markdown,
  ...settings,
  ...current,
  ...emails,
  ...follow,
  ...keys,
  ...userSettings,
  ...tokens,
  ...users,
  ...orgOrgs,
  ...orgMembers,
  ...orgTeams,
  ...orgLabels,
  ...orgHooks,
  ...repoTeams,
};

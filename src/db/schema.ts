import type { Generated } from 'kysely';

/**
 * Table types. Portable conventions: times are unix seconds (int8), booleans are 0/1 integers in both
 * dialects (better-sqlite3 cannot bind JS booleans); the repository modules convert at the edge.
 */
export interface UserTable {
  id: Generated<number>;
  lower_name: string;
  name: string;
  full_name: string;
  email: string;
  keep_email_private: number;
  passwd: string;
  passwd_hash_algo: string;
  salt: string;
  must_change_password: number;
  login_type: number;
  login_source: number;
  login_name: string;
  /** 0 individual, 1 organization */
  type: number;
  location: string;
  website: string;
  description: string;
  language: string;
  theme: string;
  diff_view_style: string;
  is_active: number;
  is_admin: number;
  is_restricted: number;
  prohibit_login: number;
  allow_git_hook: number;
  allow_import_local: number;
  allow_create_organization: number;
  max_repo_creation: number;
  /** 0 public, 1 limited, 2 private */
  visibility: number;
  hide_activity: number;
  num_followers: number;
  num_following: number;
  num_stars: number;
  num_repos: number;
  created_unix: number;
  updated_unix: number;
  last_login_unix: number;
  /** Organizations: repository admins may change team access (Gitea's flag of the same name). */
  repo_admin_change_team_access: Generated<number>;
}

export interface EmailAddressTable {
  id: Generated<number>;
  uid: number;
  email: string;
  lower_email: string;
  is_activated: number;
  is_primary: number;
}

export interface AccessTokenTable {
  id: Generated<number>;
  uid: number;
  name: string;
  token_hash: string;
  token_last_eight: string;
  scope: string;
  created_unix: number;
  updated_unix: number;
}

export interface PublicKeyTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  fingerprint: string;
  content: string;
  key_type_name: string;
  /** 1 user key, 2 deploy key */
  type: number;
  read_only: number;
  created_unix: number;
  updated_unix: number;
}

export interface FollowTable {
  id: Generated<number>;
  user_id: number;
  follow_id: number;
  created_unix: number;
}

export interface UserRedirectTable {
  id: Generated<number>;
  lower_name: string;
  redirect_user_id: number;
}

export interface RepositoryTable {
  id: Generated<number>;
  owner_id: number;
  lower_name: string;
  name: string;
  description: string;
  website: string;
  original_url: string;
  default_branch: string;
  object_format_name: string;
  trust_model: string;
  /** JSON of RepoSettings (units, merge styles, trackers). */
  settings: string;
  is_private: number;
  is_empty: number;
  is_archived: number;
  is_mirror: number;
  is_fork: number;
  is_template: number;
  /** 0 ready, 1 being migrated, 3 broken (Gitea's RepositoryStatus). */
  status: number;
  num_watches: number;
  num_stars: number;
  num_forks: number;
  num_issues: number;
  num_closed_issues: number;
  num_pulls: number;
  num_closed_pulls: number;
  num_milestones: number;
  num_closed_milestones: number;
  num_releases: number;
  fork_id: number;
  template_id: number;
  size: number;
  num_commits: number;
  created_unix: number;
  updated_unix: number;
  archived_unix: number;
}

export interface CollaborationTable {
  id: Generated<number>;
  repo_id: number;
  user_id: number;
  /** 1 read, 2 write, 3 admin */
  mode: number;
  created_unix: number;
  updated_unix: number;
}

export interface StarTable {
  id: Generated<number>;
  uid: number;
  repo_id: number;
  created_unix: number;
}

export interface TopicTable {
  id: Generated<number>;
  name: string;
  repo_count: number;
  created_unix: number;
  updated_unix: number;
}

export interface RepoTopicTable {
  repo_id: number;
  topic_id: number;
}

export interface RepoRedirectTable {
  id: Generated<number>;
  owner_id: number;
  lower_name: string;
  redirect_repo_id: number;
}

export interface CommitStatusTable {
  id: Generated<number>;
  /** 1, 2, ... per (repo_id, sha): the id the API shows. */
  index: number;
  repo_id: number;
  sha: string;
  state: string;
  target_url: string;
  description: string;
  context: string;
  /** sha1 of context: statuses with the same context hash belong to one context. */
  context_hash: string;
  creator_id: number;
  created_unix: number;
  updated_unix: number;
}

export interface ProtectedBranchTable {
  id: Generated<number>;
  repo_id: number;
  rule_name: string;
  can_push: number;
  enable_whitelist: number;
  whitelist_deploy_keys: number;
  enable_merge_whitelist: number;
  enable_status_check: number;
  enable_approvals_whitelist: number;
  required_approvals: number;
  block_on_rejected_reviews: number;
  block_on_official_review_requests: number;
  block_on_outdated_branch: number;
  dismiss_stale_approvals: number;
  ignore_stale_approvals: number;
  require_signed_commits: number;
  /** JSON arrays (user and team ids, status contexts). */
  whitelist_user_ids: string;
  whitelist_team_ids: string;
  merge_whitelist_user_ids: string;
  merge_whitelist_team_ids: string;
  approvals_whitelist_user_ids: string;
  approvals_whitelist_team_ids: string;
  status_check_contexts: string;
  protected_file_patterns: string;
  unprotected_file_patterns: string;
  created_unix: number;
  updated_unix: number;
}

export interface RepoTransferTable {
  id: Generated<number>;
  doer_id: number;
  recipient_id: number;
  repo_id: number;
  /** JSON array of team ids (organizations only). */
  team_ids: string;
  created_unix: number;
  updated_unix: number;
}

export interface DeployKeyTable {
  id: Generated<number>;
  key_id: number;
  repo_id: number;
  name: string;
  fingerprint: string;
  mode: number;
  created_unix: number;
  updated_unix: number;
}

export interface OrgUserTable {
  id: Generated<number>;
  uid: number;
  org_id: number;
  is_public: number;
}

export interface TeamTable {
  id: Generated<number>;
  org_id: number;
  lower_name: string;
  name: string;
  description: string;
  /** Team access mode (Gitea's authorize): 1 read, 2 write, 3 admin, 4 owner (the Owners team). */
  authorize: number;
  /** JSON object: unit name (repo.code, ...) -> access mode. */
  units: string;
  includes_all_repositories: number;
  can_create_org_repo: number;
  created_unix: number;
  updated_unix: number;
}

export interface TeamUserTable {
  id: Generated<number>;
  org_id: number;
  team_id: number;
  uid: number;
}

export interface TeamRepoTable {
  id: Generated<number>;
  org_id: number;
  team_id: number;
  repo_id: number;
}

export interface LabelTable {
  id: Generated<number>;
  repo_id: number;
  org_id: number;
  name: string;
  exclusive: number;
  description: string;
  color: string;
  num_issues: number;
  num_closed_issues: number;
  created_unix: number;
  updated_unix: number;
  archived_unix: number;
}

export interface WebhookTable {
  id: Generated<number>;
  repo_id: number | null;
  owner_id: number | null;
  is_system_webhook: number;
  type: string;
  url: string;
  content_type: string;
  http_method: string;
  secret: string;
  /** JSON array of enabled event flags (domain/webhook.ts). */
  events: string;
  branch_filter: string;
  /** Encrypted with SECRET_KEY (services/webhooks.ts). */
  authorization_header: string;
  is_active: number;
  /** JSON object: type-specific settings (slack channel, username, ...). */
  meta: string;
  created_unix: number;
  updated_unix: number;
}

export interface HookTaskTable {
  id: Generated<number>;
  hook_id: number;
  uuid: string;
  event_type: string;
  payload: string;
  is_delivered: number;
  is_succeed: number;
  attempts: number;
  next_attempt_ms: number;
  claimed_by: string;
  claim_until_ms: number;
  created_ms: number;
  delivered_ms: number;
}

export interface HookTaskAttemptTable {
  id: Generated<number>;
  task_id: number;
  attempt: number;
  is_succeed: number;
  request: string;
  response: string;
  error: string;
  started_ms: number;
  duration_ms: number;
}

export interface MirrorTable {
  id: Generated<number>;
  repo_id: number;
  /** 0: no periodic sync. */
  interval_seconds: number;
  enable_prune: number;
  next_update_unix: number;
  updated_unix: number;
  sync_requested: number;
  /** Without credentials. */
  remote_address: string;
  auth_username: string;
  auth_password: string;
  auth_token: string;
  last_error: string;
}

export interface Database {
  mirror: MirrorTable;
  webhook: WebhookTable;
  hook_task: HookTaskTable;
  hook_task_attempt: HookTaskAttemptTable;
  org_user: OrgUserTable;
  team: TeamTable;
  team_user: TeamUserTable;
  team_repo: TeamRepoTable;
  label: LabelTable;
  repo_transfer: RepoTransferTable;
  deploy_key: DeployKeyTable;
  protected_branch: ProtectedBranchTable;
  commit_status: CommitStatusTable;
  repository: RepositoryTable;
  collaboration: CollaborationTable;
  star: StarTable;
  topic: TopicTable;
  repo_topic: RepoTopicTable;
  repo_redirect: RepoRedirectTable;
  user: UserTable;
  email_address: EmailAddressTable;
  access_token: AccessTokenTable;
  public_key: PublicKeyTable;
  follow: FollowTable;
  user_redirect: UserRedirectTable;
}

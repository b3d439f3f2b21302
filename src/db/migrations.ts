import { type Kysely, type Migration, type MigrationProvider, type CreateTableBuilder } from 'kysely';
import type { DialectName } from './index.js';

/*
 * Append-only and frozen: a released migration is never edited, only followed by a new one.
 * They take Kysely<any> on purpose, so later changes to the table types cannot change what old migrations do.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function withId<T extends string>(dialect: DialectName, t: CreateTableBuilder<T, never>) {
  return dialect === 'postgres'
    ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

function migration0001(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      const int = (name: string, dflt = 0) => (t: CreateTableBuilder<string, never>) =>
        t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(dflt));
      const text = (name: string) => (t: CreateTableBuilder<string, never>) =>
        t.addColumn(name, 'text', (c) => c.notNull().defaultTo(''));
      const time = (name: string) => (t: CreateTableBuilder<string, never>) =>
        t.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0));

      let user = withId(dialect, db.schema.createTable('user'))
        .addColumn('lower_name', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull());
      for (const col of ['full_name', 'email', 'passwd', 'passwd_hash_algo', 'salt', 'login_name', 'location', 'website', 'description', 'language', 'theme', 'diff_view_style'])
        user = text(col)(user);
      for (const col of ['keep_email_private', 'must_change_password', 'login_type', 'login_source', 'type', 'is_active', 'is_admin', 'is_restricted', 'prohibit_login', 'allow_git_hook', 'allow_import_local', 'allow_create_organization', 'visibility', 'hide_activity', 'num_followers', 'num_following', 'num_stars', 'num_repos'])
        user = int(col)(user);
      user = int('max_repo_creation', -1)(user);
      for (const col of ['created_unix', 'updated_unix', 'last_login_unix']) user = time(col)(user);
      await user.execute();
      await db.schema.createIndex('user_type_idx').on('user').column('type').execute();

      await withId(dialect, db.schema.createTable('email_address'))
        .addColumn('uid', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('lower_email', 'text', (c) => c.notNull().unique())
        .addColumn('is_activated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('email_address_uid_idx').on('email_address').column('uid').execute();

      await withId(dialect, db.schema.createTable('access_token'))
        .addColumn('uid', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('token_last_eight', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('access_token_uid_name_uq', ['uid', 'name'])
        .execute();

      await withId(dialect, db.schema.createTable('public_key'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('key_type_name', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('public_key_owner_idx').on('public_key').column('owner_id').execute();
      await db.schema.createIndex('public_key_fingerprint_idx').on('public_key').column('fingerprint').execute();

      await withId(dialect, db.schema.createTable('follow'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('follow_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('follow_pair_uq', ['user_id', 'follow_id'])
        .execute();
      await db.schema.createIndex('follow_follow_idx').on('follow').column('follow_id').execute();

      await withId(dialect, db.schema.createTable('user_redirect'))
        .addColumn('lower_name', 'text', (c) => c.notNull().unique())
        .addColumn('redirect_user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .execute();
    },
  };
}

function migration0002(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      const bigint0 = (name: string) => (t: CreateTableBuilder<string, never>) => t.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0));
      const int0 = (name: string) => (t: CreateTableBuilder<string, never>) => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));
      const text0 = (name: string) => (t: CreateTableBuilder<string, never>) => t.addColumn(name, 'text', (c) => c.notNull().defaultTo(''));

      let repo = withId(dialect, db.schema.createTable('repository'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id'))
        .addColumn('lower_name', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull());
      for (const col of ['description', 'website', 'original_url', 'default_branch', 'object_format_name', 'trust_model', 'settings']) repo = text0(col)(repo);
      for (const col of ['is_private', 'is_empty', 'is_archived', 'is_mirror', 'is_fork', 'is_template', 'status', 'num_watches', 'num_stars', 'num_forks', 'num_issues', 'num_closed_issues', 'num_pulls', 'num_closed_pulls', 'num_milestones', 'num_closed_milestones', 'num_releases'])
        repo = int0(col)(repo);
      for (const col of ['fork_id', 'template_id', 'size', 'num_commits', 'created_unix', 'updated_unix', 'archived_unix']) repo = bigint0(col)(repo);
      await repo.addUniqueConstraint('repository_owner_name_uq', ['owner_id', 'lower_name']).execute();
      await db.schema.createIndex('repository_fork_idx').on('repository').column('fork_id').execute();

      await withId(dialect, db.schema.createTable('collaboration'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('mode', 'integer', (c) => c.notNull())
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('collaboration_repo_user_uq', ['repo_id', 'user_id'])
        .execute();
      await db.schema.createIndex('collaboration_user_idx').on('collaboration').column('user_id').execute();

      await withId(dialect, db.schema.createTable('star'))
        .addColumn('uid', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('star_uid_repo_uq', ['uid', 'repo_id'])
        .execute();
      await db.schema.createIndex('star_repo_idx').on('star').column('repo_id').execute();

      await withId(dialect, db.schema.createTable('topic'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('repo_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('repo_topic')
        .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addColumn('topic_id', 'bigint', (c) => c.notNull().references('topic.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('repo_topic_pk', ['repo_id', 'topic_id'])
        .execute();

      await withId(dialect, db.schema.createTable('repo_redirect'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('lower_name', 'text', (c) => c.notNull())
        .addColumn('redirect_repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addUniqueConstraint('repo_redirect_owner_name_uq', ['owner_id', 'lower_name'])
        .execute();
    },
  };
}

function migration0003(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      // Gitea's commit_status: `index` numbers the statuses of one commit (1, 2, ...), context_hash groups a context.
      await withId(dialect, db.schema.createTable('commit_status'))
        .addColumn('index', 'bigint', (c) => c.notNull())
        .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addColumn('sha', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('target_url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('context', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('context_hash', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('commit_status_repo_sha_index_uq', ['repo_id', 'sha', 'index'])
        .execute();
      await db.schema.createIndex('commit_status_repo_sha_ctx_idx').on('commit_status').columns(['repo_id', 'sha', 'context_hash']).execute();
    },
  };
}

function migration0004(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      // Gitea's protected_branch: one rule per (repo, rule_name); id lists are JSON arrays of numbers as text.
      let t = withId(dialect, db.schema.createTable('protected_branch'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addColumn('rule_name', 'text', (c) => c.notNull());
      for (const col of [
        'can_push', 'enable_whitelist', 'whitelist_deploy_keys', 'enable_merge_whitelist', 'enable_status_check',
        'enable_approvals_whitelist', 'required_approvals', 'block_on_rejected_reviews', 'block_on_official_review_requests',
        'block_on_outdated_branch', 'dismiss_stale_approvals', 'ignore_stale_approvals', 'require_signed_commits',
      ])
        t = t.addColumn(col, 'integer', (c) => c.notNull().defaultTo(0));
      for (const col of [
        'whitelist_user_ids', 'whitelist_team_ids', 'merge_whitelist_user_ids', 'merge_whitelist_team_ids',
        'approvals_whitelist_user_ids', 'approvals_whitelist_team_ids', 'status_check_contexts',
      ])
        t = t.addColumn(col, 'text', (c) => c.notNull().defaultTo('[]'));
      for (const col of ['protected_file_patterns', 'unprotected_file_patterns']) t = t.addColumn(col, 'text', (c) => c.notNull().defaultTo(''));
      await t
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('protected_branch_repo_rule_uq', ['repo_id', 'rule_name'])
        .execute();
    },
  };
}

function migration0005(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      // Gitea's repo_transfer: at most one pending transfer per repository (repository.status is 2 meanwhile).
      await withId(dialect, db.schema.createTable('repo_transfer'))
        .addColumn('doer_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('recipient_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().unique().references('repository.id').onDelete('cascade'))
        .addColumn('team_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .execute();
      // Gitea's deploy_key: links a public_key row of type 2 (shared by every repository using the key) to a repository.
      await withId(dialect, db.schema.createTable('deploy_key'))
        .addColumn('key_id', 'bigint', (c) => c.notNull().references('public_key.id').onDelete('cascade'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('mode', 'integer', (c) => c.notNull())
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('deploy_key_key_repo_uq', ['key_id', 'repo_id'])
        .addUniqueConstraint('deploy_key_repo_name_uq', ['repo_id', 'name'])
        .execute();
      await db.schema.createIndex('deploy_key_key_idx').on('deploy_key').column('key_id').execute();
    },
  };
}

function migration0006(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      // Gitea's user.repo_admin_change_team_access (organizations only).
      await db.schema.alterTable('user').addColumn('repo_admin_change_team_access', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // Gitea's organization tables. Membership of an organization is membership of one of its teams;
      // org_user keeps the per-member "public" flag. Team units are a JSON object on the team row
      // (unit name -> access mode), read whole with the team.
      await withId(dialect, db.schema.createTable('org_user'))
        .addColumn('uid', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('org_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('org_user_uid_org_uq', ['uid', 'org_id'])
        .execute();
      await db.schema.createIndex('org_user_org_idx').on('org_user').column('org_id').execute();
      await withId(dialect, db.schema.createTable('team'))
        .addColumn('org_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('lower_name', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('authorize', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('units', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('includes_all_repositories', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('can_create_org_repo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_unix', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_unix', 'bigint', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('team_org_name_uq', ['org_id', 'lower_name'])
        .execute();
      await withId(dialect, db.schema.createTable('team_user'))
        .addColumn('org_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('team_id', 'bigint', (c) => c.notNull().references('team.id').onDelete('cascade'))
        .addColumn('uid', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addUniqueConstraint('team_user_team_uid_uq', ['team_id', 'uid'])
        .execute();
      await db.schema.createIndex('team_user_uid_idx').on('team_user').columns(['uid', 'org_id']).execute();
      await withId(dialect, db.schema.createTable('team_repo'))
        .addColumn('org_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('team_id', 'bigint', (c) => c.notNull().references('team.id').onDelete('cascade'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
        .addUniqueConstraint('team_repo_team_repo_uq', ['team_id', 'repo_id'])
        .execute();
      await db.schema.createIndex('team_repo_repo_idx').on('team_repo').column('repo_id').execute();
      // Labels of an organization (org_id) or of a repository (repo_id); the other id is 0.
      await withId(dialect, db.schema.createTable('label'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('org_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('exclusive', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('num_issues', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('num_closed_issues', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_unix', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_unix', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('archived_unix', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('label_repo_idx').on('label').column('repo_id').execute();
      await db.schema.createIndex('label_org_idx').on('label').column('org_id').execute();
    },
  };
}

function migration0007(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      // Gitea's webhook. repo_id set: a repository hook; owner_id set: a user or organization hook; neither: a
      // system hook (is_system_webhook=1) or a default hook (a template copied into repositories created later).
      await withId(dialect, db.schema.createTable('webhook'))
        .addColumn('repo_id', 'bigint', (c) => c.references('repository.id').onDelete('cascade'))
        .addColumn('owner_id', 'bigint', (c) => c.references('user.id').onDelete('cascade'))
        .addColumn('is_system_webhook', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('http_method', 'text', (c) => c.notNull().defaultTo('POST'))
        .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('events', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('branch_filter', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('authorization_header', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('meta', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_unix', 'bigint', (c) => c.notNull())
        .addColumn('updated_unix', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_repo_idx').on('webhook').column('repo_id').execute();
      await db.schema.createIndex('webhook_owner_idx').on('webhook').column('owner_id').execute();
      // The outbox: one row per (hook, event), written in the transaction of the change. claimed_by/claim_until is
      // the lease of the process sending it; an expired lease is taken over (the claimer crashed).
      await withId(dialect, db.schema.createTable('hook_task'))
        .addColumn('hook_id', 'bigint', (c) => c.notNull().references('webhook.id').onDelete('cascade'))
        .addColumn('uuid', 'text', (c) => c.notNull().unique())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('is_delivered', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_succeed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('claimed_by', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('claim_until_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .addColumn('delivered_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('hook_task_pending_idx').on('hook_task').columns(['is_delivered', 'next_attempt_ms']).execute();
      await db.schema.createIndex('hook_task_hook_idx').on('hook_task').column('hook_id').execute();
      // One row per delivery attempt: what was sent (Authorization masked) and what came back (body capped).
      await withId(dialect, db.schema.createTable('hook_task_attempt'))
        .addColumn('task_id', 'bigint', (c) => c.notNull().references('hook_task.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('is_succeed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('started_ms', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('hook_task_attempt_task_idx').on('hook_task_attempt').column('task_id').execute();
    },
  };
}

function migration0008(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      // Pull mirrors (Gitea's mirror table). The remote address is stored without credentials; these live in their
      // own columns, are never returned by the API and are handed to git through its environment at fetch time.
      // sync_requested: a durable "sync now" flag (POST mirror-sync), so a queued sync survives a restart.
      await withId(dialect, db.schema.createTable('mirror'))
        .addColumn('repo_id', 'bigint', (c) => c.notNull().unique().references('repository.id').onDelete('cascade'))
        .addColumn('interval_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('enable_prune', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('next_update_unix', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_unix', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('sync_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('remote_address', 'text', (c) => c.notNull())
        .addColumn('auth_username', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('auth_password', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('auth_token', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('mirror_next_update_idx').on('mirror').column('next_update_unix').execute();
    },
  };
}

/** Migrations in order; the names sort in application order. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  return {
    async getMigrations() {
      return { '0001_users_tokens_keys': migration0001(dialect), '0002_repositories': migration0002(dialect), '0003_commit_status': migration0003(dialect),
        '0004_protected_branch': migration0004(dialect),
        '0005_transfers_deploy_keys': migration0005(dialect),
        '0006_organizations': migration0006(dialect),
        '0007_webhooks': migration0007(dialect),
        '0008_mirrors': migration0008(dialect),
      };
    },
  };
}

export const LATEST_MIGRATION = '0008_mirrors';

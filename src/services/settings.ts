import type { Config } from '../config/index.js';

/** The instance settings clients read through /settings/*; values are Gitea's defaults for what we do not configure. */
export function createSettingsService(config: Config) {
  return {
    api: () => ({
      max_response_items: config.api.maxResponseItems,
      default_paging_num: config.api.defaultPagingNum,
      default_git_trees_per_page: 1000,
      default_max_blob_size: 10485760,
    }),
    attachment: () => ({
      enabled: true,
      allowed_types:
        '.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip',
      max_size: 2048,
      max_files: 5,
    }),
    repository: () => ({
      mirrors_disabled: false,
      http_git_disabled: false,
      migrations_disabled: false,
      stars_disabled: false,
      time_tracking_disabled: false,
      lfs_disabled: true,
    }),
    ui: () => ({
      default_theme: 'gitea-auto',
      allowed_reactions: ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'],
      custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs'],
    }),
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;

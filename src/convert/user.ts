import { createHash } from 'node:crypto';
import type { Complete, Schemas } from '../handlers/kit.js';
import type { User } from '../domain/user.js';
import type { Config } from '../config/index.js';
import { isoTime, ZERO_TIME } from './time.js';

export function avatarUrl(user: User, config: Config): string {
  return `${config.server.rootUrl}avatars/${createHash('md5').update(user.email.toLowerCase()).digest('hex')}`;
}

/**
 * The User JSON as `viewer` may see it (Gitea's convert.ToUser): private fields only for the user themself
 * and site administrators; the real e-mail only for signed-in viewers when the user does not hide it.
 */
export function toApiUser(user: User, viewer: User | null, config: Config): Complete<Schemas['User']> {
  const privileged = !!viewer && (viewer.id === user.id || viewer.isAdmin);
  const showEmail = !!viewer && (privileged || !user.keepEmailPrivate);
  return {
    id: user.id,
    login: user.name,
    login_name: privileged ? user.loginName : '',
    source_id: privileged ? user.loginSource : 0,
    full_name: user.fullName,
    // An organization without an e-mail gets the placeholder too (Gitea sends "", which is not an e-mail).
    email: showEmail && user.email !== '' ? user.email : `${user.lowerName}@${config.service.noReplyAddress}`,
    avatar_url: avatarUrl(user, config),
    html_url: `${config.server.rootUrl}${encodeURIComponent(user.name)}`,
    language: privileged ? user.language : '',
    is_admin: privileged ? user.isAdmin : false,
    last_login: privileged ? isoTime(user.lastLoginUnix) : ZERO_TIME,
    created: isoTime(user.createdUnix),
    restricted: user.isRestricted,
    active: privileged ? user.isActive : false,
    prohibit_login: privileged ? user.prohibitLogin : false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: user.visibility,
    followers_count: user.numFollowers,
    following_count: user.numFollowing,
    starred_repos_count: user.numStars,
  };
}

export function toApiUserSettings(user: User): Complete<Schemas['UserSettings']> {
  return {
    full_name: user.fullName,
    website: user.website,
    description: user.description,
    location: user.location,
    language: user.language,
    theme: user.theme,
    diff_view_style: user.diffViewStyle,
    hide_email: user.keepEmailPrivate,
    hide_activity: user.hideActivity,
  };
}

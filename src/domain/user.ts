export type Visibility = 'public' | 'limited' | 'private';
export const VISIBILITIES: readonly Visibility[] = ['public', 'limited', 'private'];
export const visibilityFromCode = (n: number): Visibility => VISIBILITIES[n] ?? 'public';
export const visibilityCode = (v: Visibility): number => VISIBILITIES.indexOf(v);

/** An account (individual or organization) as the services see it. */
export interface User {
  readonly id: number;
  readonly name: string;
  readonly lowerName: string;
  readonly fullName: string;
  readonly email: string;
  readonly keepEmailPrivate: boolean;
  readonly passwd: string;
  readonly passwdHashAlgo: string;
  readonly salt: string;
  readonly mustChangePassword: boolean;
  readonly loginType: number;
  readonly loginSource: number;
  readonly loginName: string;
  readonly isOrganization: boolean;
  readonly location: string;
  readonly website: string;
  readonly description: string;
  readonly language: string;
  readonly theme: string;
  readonly diffViewStyle: string;
  readonly isActive: boolean;
  readonly isAdmin: boolean;
  readonly isRestricted: boolean;
  readonly prohibitLogin: boolean;
  readonly allowGitHook: boolean;
  readonly allowImportLocal: boolean;
  readonly allowCreateOrganization: boolean;
  readonly maxRepoCreation: number;
  readonly visibility: Visibility;
  readonly hideActivity: boolean;
  readonly numFollowers: number;
  readonly numFollowing: number;
  readonly numStars: number;
  readonly numRepos: number;
  readonly createdUnix: number;
  readonly updatedUnix: number;
  readonly lastLoginUnix: number;
  /** Organizations only: repository admins may add and remove teams on repositories. */
  readonly repoAdminChangeTeamAccess: boolean;
}

/** Who is calling: the user after sudo, and how the credentials were presented. */
export interface Actor {
  readonly user: User | null;
  /** 'token' for personal access tokens (header, query or inside basic auth), 'basic' for a password. */
  readonly method: 'anonymous' | 'token' | 'basic';
  /** True when the credentials came through the Basic scheme (token management needs it). */
  readonly viaBasic: boolean;
  /** Scopes of the token, null when no token was used (no scope check applies). */
  readonly scopes: import('./scopes.js').TokenScope | null;
}

/** Whether `viewer` may see `target` at all (Gitea's IsUserVisibleToViewer). */
export function canSeeUser(target: User, viewer: User | null): boolean {
  if (target.visibility === 'public') return true;
  if (!viewer) return false;
  if (viewer.isAdmin || viewer.id === target.id) return true;
  if (target.visibility === 'limited') return !viewer.isRestricted;
  return false;
}

import type { Handler } from '../kit.js';
import { isoTime } from '../../convert/time.js';

export const repoListTopics: Handler<'repoListTopics'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  const topics = await ctx.services.social.topics(access);
  return { status: 200, body: { topics }, total: topics.length };
};

export const repoUpdateTopics: Handler<'repoUpdateTopics'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.social.setTopics(access, ctx.body.topics ?? []);
  return { status: 204, body: undefined };
};

export const repoAddTopic: Handler<'repoAddTopic'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.social.addTopic(access, ctx.path.topic);
  return { status: 204, body: undefined };
};

export const repoDeleteTopic: Handler<'repoDeleteTopic'> = async (ctx) => {
  const access = await ctx.services.repos.resolve(ctx.path.owner, ctx.path.repo, ctx.actor);
  await ctx.services.social.deleteTopic(access, ctx.path.topic);
  return { status: 204, body: undefined };
};

/** Gitea answers {"topics": [...]} here, although its description says a bare list. */
export const topicSearch: Handler<'topicSearch'> = async (ctx) => {
  const { topics, total } = await ctx.services.social.searchTopics(ctx.query.q ?? '', ctx.paging());
  return {
    status: 200,
    body: {
      topics: topics.map((t) => ({ id: t.id, topic_name: t.name, repo_count: t.repoCount, created: isoTime(t.createdUnix), updated: isoTime(t.updatedUnix) })),
    },
    total,
  };
};

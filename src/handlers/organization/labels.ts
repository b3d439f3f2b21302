import { type Handler, type Schemas, requireDoer } from '../kit.js';
import { toApiLabel } from '../../convert/org.js';
import type { LabelInput } from '../../services/orgs.js';

const labelInput = (b: Schemas['CreateLabelOption'] | Schemas['EditLabelOption']): LabelInput => ({
  name: b.name,
  color: b.color,
  description: b.description,
  exclusive: b.exclusive,
  isArchived: b.is_archived,
});

export const orgListLabels: Handler<'orgListLabels'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const { labels, total } = await ctx.services.orgs.listLabels(org, ctx.paging());
  return { status: 200, body: labels.map((l) => toApiLabel(l, org, ctx.services.config)), total, link: true };
};

export const orgCreateLabel: Handler<'orgCreateLabel'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const label = await ctx.services.orgs.createLabel(org, requireDoer(ctx), labelInput(ctx.body));
  return { status: 201, body: toApiLabel(label, org, ctx.services.config) };
};

export const orgGetLabel: Handler<'orgGetLabel'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  return { status: 200, body: toApiLabel(await ctx.services.orgs.getLabel(org, ctx.path.id), org, ctx.services.config) };
};

export const orgEditLabel: Handler<'orgEditLabel'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  const label = await ctx.services.orgs.editLabel(org, requireDoer(ctx), ctx.path.id, labelInput(ctx.body));
  return { status: 200, body: toApiLabel(label, org, ctx.services.config) };
};

export const orgDeleteLabel: Handler<'orgDeleteLabel'> = async (ctx) => {
  const org = await ctx.services.orgs.resolveOrg(ctx.path.org, ctx.actor);
  await ctx.services.orgs.deleteLabel(org, requireDoer(ctx), ctx.path.id);
  return { status: 204, body: undefined };
};

/**
 * What a hook sends: Gitea/Gogs hooks the payload itself (JSON or form-encoded), chat services a compact message
 * in their own format (Gitea's modules/webhook/<type>.go, reduced to a title, a text and a link).
 */
import { createHash } from 'node:crypto';
import type { Webhook } from '../domain/webhook.js';

export interface OutgoingRequest {
  readonly method: string;
  readonly url: string;
  readonly contentType: string;
  readonly body: string;
  /** The text the signature covers (the JSON payload for gitea/gogs, even form-encoded; the sent body otherwise). */
  readonly signed: string;
}

type P = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Message {
  readonly title: string;
  readonly text: string;
  readonly url: string;
  /** Lines under the title (commits of a push). */
  readonly lines: readonly string[];
  readonly color: number;
}

const GREEN = 0x1ac600;
const GREY = 0x7a7a7a;
const RED = 0xff3232;

/** The human summary of an event, shared by every chat format. */
export function summarize(eventType: string, p: P): Message {
  const repo = p.repository ?? {};
  const full = String(repo.full_name ?? '');
  const repoUrl = String(repo.html_url ?? '');
  const sender = String(p.sender?.login ?? '');
  switch (eventType) {
    case 'push': {
      const ref = String(p.ref ?? '');
      const name = ref.replace(/^refs\/(heads|tags)\//, '');
      const n = Number(p.total_commits ?? 0);
      const commits = (p.commits ?? []) as P[];
      return {
        title: `[${full}:${name}] ${n} new commit${n === 1 ? '' : 's'}`,
        text: `${sender} pushed to ${name}`,
        url: n > 0 ? String(p.compare_url ?? repoUrl) : repoUrl,
        lines: commits.map((c) => `${String(c.id).slice(0, 10)}: ${String(c.message ?? '').split('\n')[0]} - ${String(c.author?.name ?? '')}`),
        color: GREEN,
      };
    }
    case 'create':
      return { title: `[${full}] ${p.ref_type} ${p.ref} created`, text: `${sender} created ${p.ref_type} ${p.ref}`, url: repoUrl, lines: [], color: GREEN };
    case 'delete':
      return { title: `[${full}] ${p.ref_type} ${p.ref} deleted`, text: `${sender} deleted ${p.ref_type} ${p.ref}`, url: repoUrl, lines: [], color: RED };
    case 'fork':
      return {
        title: `${p.forkee?.full_name} is forked to ${full}`,
        text: `${sender} forked ${p.forkee?.full_name}`,
        url: repoUrl,
        lines: [],
        color: GREEN,
      };
    case 'repository':
      return { title: `[${full}] Repository ${p.action}`, text: `${sender} ${p.action} ${full}`, url: repoUrl, lines: [], color: p.action === 'deleted' ? RED : GREEN };
    default: {
      const action = String(p.action ?? eventType);
      const num = p.number !== undefined ? ` #${p.number}` : '';
      return { title: `[${full}] ${eventType} ${action}${num}`, text: `${sender} ${action}`, url: repoUrl, lines: [], color: GREY };
    }
  }
}

const hex = (n: number) => `#${n.toString(16).padStart(6, '0')}`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function chatBody(hook: Webhook, eventType: string, p: P, payloadText: string): P | null {
  const m = summarize(eventType, p);
  const text = [m.text, ...m.lines].join('\n');
  switch (hook.type) {
    case 'slack':
      // Slack reads <url|label> in text as a link: user text (branch names, commit messages) is escaped as
      // Gitea's SlackTextFormatter does, so it cannot smuggle in links of its own.
      return {
        channel: hook.meta.channel ?? '',
        username: hook.meta.username ?? '',
        icon_url: hook.meta.icon_url ?? '',
        text: `<${m.url}|${esc(m.title)}>`,
        attachments: [{ color: hook.meta.color || hex(m.color), title: esc(m.title), title_link: m.url, text: esc(text) }],
      };
    case 'discord':
      return {
        username: hook.meta.username ?? '',
        avatar_url: hook.meta.icon_url ?? '',
        embeds: [{ title: m.title, description: text, url: m.url, color: m.color, author: { name: String(p.sender?.login ?? ''), url: String(p.sender?.html_url ?? ''), icon_url: String(p.sender?.avatar_url ?? '') } }],
      };
    case 'dingtalk':
      return { msgtype: 'actionCard', actionCard: { title: m.title, text: `${m.title}\r\n\r\n${text}`, singleTitle: 'view', singleURL: m.url, hideAvatar: '0', btnOrientation: '' } };
    case 'telegram':
      return { text: `<a href="${esc(m.url)}">${esc(m.title)}</a>\n${esc(text)}`, parse_mode: 'html', disable_web_page_preview: true };
    case 'msteams':
      return {
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        themeColor: hex(m.color).slice(1),
        title: m.title,
        summary: m.title,
        sections: [{ activityTitle: String(p.sender?.full_name || p.sender?.login || ''), activitySubtitle: String(p.sender?.login ?? ''), activityImage: String(p.sender?.avatar_url ?? ''), text }],
        potentialAction: [{ '@type': 'OpenUri', name: 'View in Gitea', targets: [{ os: 'default', uri: m.url }] }],
      };
    case 'feishu':
      return { msg_type: 'text', content: { text: `${m.title}\r\n\r\n${text}` } };
    case 'wechatwork':
      return { msgtype: 'markdown', markdown: { content: `# ${m.title}\n${text}\n[view](${m.url})` } };
    case 'matrix':
      return { body: `[${m.title}](${m.url})\n${text}`, msgtype: hook.meta.message_type === '1' ? 'm.text' : 'm.notice', format: 'org.matrix.custom.html', formatted_body: `<a href="${esc(m.url)}">${esc(m.title)}</a><br>${esc(text).replace(/\n/g, '<br>')}` };
    case 'packagist':
      // Packagist only cares about pushes: it re-reads the repository.
      return eventType === 'push' ? { repository: { url: String(p.repository?.html_url ?? '') } } : null;
    default:
      return JSON.parse(payloadText) as P;
  }
}

/** The request for one delivery; null when this hook type has nothing to send for the event. */
export function outgoing(hook: Webhook, eventType: string, payloadText: string): OutgoingRequest | null {
  if (hook.type === 'gitea' || hook.type === 'gogs') {
    if (hook.contentType === 'form') {
      return { method: 'POST', url: hook.url, contentType: 'application/x-www-form-urlencoded', body: `payload=${encodeURIComponent(payloadText)}`, signed: payloadText };
    }
    return { method: 'POST', url: hook.url, contentType: 'application/json', body: payloadText, signed: payloadText };
  }
  const body = chatBody(hook, eventType, JSON.parse(payloadText) as P, payloadText);
  if (!body) return null;
  const text = JSON.stringify(body);
  if (hook.type === 'matrix') {
    // Matrix rooms take PUT with a transaction id; the same payload gets the same id (idempotent resend).
    const txn = createHash('sha1').update(text).digest('hex');
    return { method: 'PUT', url: `${hook.url.replace(/\/+$/, '')}/${txn}`, contentType: 'application/json', body: text, signed: text };
  }
  return { method: 'POST', url: hook.url, contentType: 'application/json', body: text, signed: text };
}

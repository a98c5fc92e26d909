// Markdown of task descriptions and comments, rendered to HTML on the server only (this module and
// markdown-it never reach the browser's bundle), so a page reads the same without JavaScript.
//
// Safe by construction rather than by cleaning afterwards: markdown-it with raw HTML turned off
// escapes every character of text it outputs, and every link or image address goes through
// `safeLink` (http, https, mailto, or a path of this site) before it becomes one; anything else stays
// text. External links carry rel="noopener noreferrer nofollow". Images are shown only from this
// workspace's own file addresses (`/w/:workspace/files/:id`); any other picture is a plain link.
//
// On top of CommonMark with tables and strikethrough (markdown-it's default preset) and linkified
// addresses: task keys (`WEB-12`) that name a task the reader can see become links to it with its
// title, `@name` mentions of members become marked mentions, and checklist lines become checkboxes,
// numbered by the rule the tick RPC uses (app/utils/markdown-rules.ts).
import MarkdownIt, { type Options } from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import {
  checklistItems,
  type ChecklistItem,
  mentionedMembers,
  MENTION_IN_TEXT,
  TASK_KEY,
} from './markdown-rules.ts';

/** What a render needs to know besides the text. */
export interface MarkdownContext {
  workspaceSlug: string;
  /** The tasks the text may name, by key in capitals (`WEB-12`): their address and title. */
  tasks: ReadonlyMap<string, { path: string; title: string }>;
  /** The workspace's members, who `@name` may mention. */
  members: ReadonlyArray<{ id: string; name: string }>;
  /** Checklist items become buttons of the surrounding tick form; else boxes that only show. */
  tickable?: boolean;
}

interface Env {
  context: MarkdownContext;
  checklist: Map<number, ChecklistItem>;
}

/** Links and images: http, https, mailto, or a path of this site (never `//host` nor `/\host`). */
const SAFE_LINK = /^(?:https?:\/\/|mailto:|\/(?![/\\]))/i;
const EXTERNAL = /^https?:\/\//i;

export function safeLink(url: string): boolean {
  return SAFE_LINK.test(url) && !/[\s\u0000-\u001f]/.test(url);
}

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
md.validateLink = safeLink;
const escape = md.utils.escapeHtml;

// ---- Checklists: the box goes in front of the item's text, `[ ]` taken off it --------------------
const BOX = /^\[( |x|X)\](?:\s+|$)/;

md.core.ruler.push('checklist', (state) => {
  const { checklist } = state.env as Env;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    if (open.type !== 'list_item_open' || !open.map) continue;
    const item = checklist.get(open.map[0]);
    // The item's first line is the one with the box: its paragraph's inline content.
    const inline = tokens[i + 2];
    if (!item || tokens[i + 1]?.type !== 'paragraph_open' || inline?.type !== 'inline') continue;
    const first = inline.children?.[0];
    if (!first || first.type !== 'text' || !BOX.test(first.content)) continue;
    first.content = first.content.replace(BOX, '');
    const box = new state.Token('checklist_box', '', 0);
    box.meta = item;
    inline.children!.unshift(box);
    open.attrJoin('class', 'checklist-item');
  }
});

md.renderer.rules.checklist_box = (tokens, idx, _options, env: Env) => {
  const item = tokens[idx]!.meta as ChecklistItem;
  const label = escape(item.text || `Item ${item.n}`);
  if (!env.context.tickable)
    return `<input type="checkbox" class="checklist-box" disabled${item.checked ? ' checked' : ''} aria-label="${label}"> `;
  // The value says which item, what it becomes, and the text it was ticked as (app/routes/…/checklist.server.ts).
  const value = escape(`${item.n}:${item.checked ? 0 : 1}:${item.text}`);
  return `<button type="submit" name="item" value="${value}" role="checkbox" aria-checked="${item.checked}" aria-label="${label}" data-item="${item.n}" data-checked="${item.checked}" class="checklist-box"></button> `;
};

// ---- Task keys and mentions in text (not inside links or code) ------------------------------------
const REFERENCE = new RegExp(`${TASK_KEY.source}|${MENTION_IN_TEXT.source}`, 'gu');

md.core.ruler.push('references', (state) => {
  const { context } = state.env as Env;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let inLink = 0;
    for (const token of block.children) {
      if (token.type === 'link_open') inLink++;
      if (token.type === 'link_close') inLink--;
      if (token.type !== 'text' || inLink > 0) {
        out.push(token);
        continue;
      }
      let last = 0;
      const text = token.content;
      for (const m of text.matchAll(REFERENCE)) {
        const start = m.index;
        let made: Token | null = null;
        let end = start + m[0].length;
        if (m[1] !== undefined) {
          const key = `${m[1].toUpperCase()}-${m[2]}`;
          const task = context.tasks.get(key);
          if (task) {
            made = new state.Token('task_ref', '', 0);
            made.meta = { key, ...task };
          }
        } else {
          // A mention's name is the whole token; dots and dashes after it are punctuation, not drawn.
          const token = m[3]!;
          const shown = token.replace(/[._-]+$/u, '');
          const who = mentionedMembers(token, context.members);
          if (who.length > 0 && shown !== '') {
            made = new state.Token('mention', '', 0);
            made.meta = { shown, ids: who.map((w) => w.id) };
            end = start + 1 + shown.length;
          }
        }
        if (!made) continue;
        if (start > last) out.push(textToken(state.Token, text.slice(last, start)));
        out.push(made);
        last = end;
      }
      if (last === 0) out.push(token);
      else if (last < text.length) out.push(textToken(state.Token, text.slice(last)));
    }
    block.children = out;
  }
});

function textToken(Make: typeof Token, content: string): Token {
  const t = new Make('text', '', 0);
  t.content = content;
  return t;
}

md.renderer.rules.task_ref = (tokens, idx) => {
  const { key, path, title } = tokens[idx]!.meta as { key: string; path: string; title: string };
  return `<a href="${escape(path)}" class="task-ref" title="${escape(title)}"><span>${escape(key)}</span> ${escape(title)}</a>`;
};

md.renderer.rules.mention = (tokens, idx) => {
  const { shown, ids } = tokens[idx]!.meta as { shown: string; ids: string[] };
  return `<span class="mention" data-user-ids="${escape(ids.join(' '))}">@${escape(shown)}</span>`;
};

// ---- Links and images ---------------------------------------------------------------------------
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const href = tokens[idx]!.attrGet('href') ?? '';
  if (EXTERNAL.test(href)) tokens[idx]!.attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx, options, env: Env) => {
  const token = tokens[idx]!;
  const src = token.attrGet('src') ?? '';
  const alt = imageAlt(token, options, env);
  const own = new RegExp(`^/w/${escapeRegExp(env.context.workspaceSlug)}/files/[0-9a-f-]{36}$`, 'i');
  if (own.test(src)) return `<img src="${escape(src)}" alt="${escape(alt)}" loading="lazy">`;
  // Another address (or none that was safe): the picture's words, as a link when the address is safe.
  if (!src) return escape(alt);
  const rel = EXTERNAL.test(src) ? ' rel="noopener noreferrer nofollow"' : '';
  return `<a href="${escape(src)}"${rel}>${escape(alt || src)}</a>`;
};

function imageAlt(token: Token, options: Options, env: Env): string {
  return md.renderer.renderInlineAsText(token.children ?? [], options, env);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A text's markdown as HTML (without a wrapper). */
export function renderMarkdown(source: string, context: MarkdownContext): string {
  const checklist = new Map(checklistItems(source).map((item) => [item.line, item]));
  const env: Env = { context, checklist };
  return md.render(source, env);
}

/** The task keys the texts mention (`WEB-12` in any case), each once, in capitals: for one lookup. */
export function taskKeysIn(texts: readonly string[]): Array<{ project: string; number: number }> {
  const seen = new Map<string, { project: string; number: number }>();
  for (const text of texts)
    for (const m of text.matchAll(TASK_KEY)) {
      const project = m[1]!.toUpperCase();
      seen.set(`${project}-${m[2]}`, { project, number: Number(m[2]) });
    }
  return [...seen.values()];
}

// A Trello board's JSON export (Board menu → Print, export and share → Export as JSON): the board
// with its `lists`, `cards`, `labels`, `checklists`, `members` and `actions`, as Trello's REST API
// returns a board (GET /1/boards/{id} with those nested). Lists become statuses, cards tasks; a
// card's checklists become `- [ ]` items under its description, its comments (actions of type
// commentCard) comments by the importer that name their author and date. Archived (`closed`) lists
// and cards are left out and counted.
import { z } from 'zod';
import type { ImportRow, ParseResult, Problem, ProposedStatus } from './rows.server.ts';
import {
  calendarDate,
  distinctNames,
  MAX_IMPORT_TASKS,
  multiLine,
  oneLine,
  refuse,
  rowProblems,
} from './rows.server.ts';

const text = z.string().nullish();

const Board = z.object({
  name: text,
  lists: z.array(
    z.object({ id: z.string(), name: z.string(), closed: z.boolean().nullish(), pos: z.number().nullish() }),
  ),
  cards: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      desc: text,
      closed: z.boolean().nullish(),
      idList: z.string(),
      idLabels: z.array(z.string()).nullish(),
      idMembers: z.array(z.string()).nullish(),
      due: text,
      pos: z.number().nullish(),
    }),
  ),
  labels: z.array(z.object({ id: z.string(), name: text, color: text })).nullish(),
  checklists: z
    .array(
      z.object({
        idCard: z.string(),
        name: text,
        pos: z.number().nullish(),
        checkItems: z.array(z.object({ name: z.string(), state: text, pos: z.number().nullish() })).nullish(),
      }),
    )
    .nullish(),
  members: z.array(z.object({ id: z.string(), fullName: text, username: text, email: text })).nullish(),
  actions: z
    .array(
      z.object({
        type: z.string(),
        date: text,
        idMemberCreator: text,
        memberCreator: z.object({ fullName: text, username: text }).nullish(),
        data: z.object({ text: text, card: z.object({ id: z.string() }).nullish() }).nullish(),
      }),
    )
    .nullish(),
});
type Board = z.infer<typeof Board>;

/** Trello's label colours (with their `_dark` and `_light` shades) in the workspace's palette. */
const COLOURS: Record<string, string> = {
  green: 'green',
  yellow: 'yellow',
  orange: 'orange',
  red: 'red',
  purple: 'purple',
  blue: 'blue',
  sky: 'teal',
  lime: 'green',
  pink: 'pink',
  black: 'gray',
};

const byPos = <T extends { pos?: number | null }>(a: T, b: T) => (a.pos ?? 0) - (b.pos ?? 0);

/** A list's status category, guessed from its name; To do when nothing fits. */
function categoryOf(name: string): ProposedStatus['category'] {
  if (/\b(done|complete[d]?|finished|shipped|closed)\b/i.test(name)) return 'completed';
  if (/\b(cancel+ed|won'?t do|dropped)\b/i.test(name)) return 'canceled';
  if (/\b(doing|in progress|progress|review|testing|started)\b/i.test(name)) return 'started';
  if (/\b(backlog|ideas?|someday|icebox)\b/i.test(name)) return 'backlog';
  return 'unstarted';
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Where in the JSON a shape problem is: `cards[3].name`. */
function pathOf(path: PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`))
    .join('');
}

function comment(action: NonNullable<Board['actions']>[number], members: Map<string, string>): string | null {
  const body = multiLine(action.data?.text ?? '').trim();
  if (body === '') return null;
  const author =
    oneLine(action.memberCreator?.fullName ?? '') ||
    members.get(action.idMemberCreator ?? '') ||
    oneLine(action.memberCreator?.username ?? '') ||
    'Someone';
  const date = calendarDate(action.date ?? '');
  const heading = `**${author}** wrote${date ? ` on ${date}` : ''} in Trello:\n\n`;
  const room = 5000 - heading.length;
  return heading + (body.length > room ? `${body.slice(0, room - 1)}…` : body);
}

export function parseTrello(json: unknown): ParseResult {
  const read = Board.safeParse(json);
  if (!read.success) {
    const issue = read.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${pathOf(issue.path)})` : '';
    return refuse(
      `This JSON is not a Trello board export${where}. Export the board from Trello: Menu → Print, export and share → Export as JSON.`,
    );
  }
  const board = read.data;
  const lists = [...board.lists].sort(byPos);
  const openLists = new Map(
    lists.filter((l) => !l.closed).map((l) => [l.id, oneLine(l.name).slice(0, 30).trim()]),
  );
  const listOrder = new Map(lists.map((l, i) => [l.id, i]));
  const cards = board.cards
    .filter((c) => !c.closed && openLists.has(c.idList))
    .sort((a, b) => (listOrder.get(a.idList) ?? 0) - (listOrder.get(b.idList) ?? 0) || byPos(a, b));
  if (cards.length > MAX_IMPORT_TASKS) {
    return refuse(
      `The board has ${cards.length.toLocaleString('en')} open cards; import at most ${MAX_IMPORT_TASKS.toLocaleString('en')} at once.`,
    );
  }
  const archivedCards = board.cards.filter((c) => c.closed).length;
  const cardsOfArchivedLists = board.cards.filter((c) => !c.closed && !openLists.has(c.idList)).length;
  const archivedLists = lists.length - openLists.size;

  const labels = new Map<string, string>();
  const labelColors: Record<string, string> = {};
  for (const label of board.labels ?? []) {
    const colour = (label.color ?? '').replace(/_(dark|light)$/, '');
    const name = oneLine(label.name ?? '') || (colour ? capitalised(colour) : '');
    if (name === '') continue;
    labels.set(label.id, name);
    labelColors[name.toLowerCase()] ??= COLOURS[colour] ?? 'gray';
  }
  const emails = new Map<string, string>();
  const memberNames = new Map<string, string>();
  for (const member of board.members ?? []) {
    if (member.email) emails.set(member.id, member.email.trim().toLowerCase());
    memberNames.set(member.id, oneLine(member.fullName ?? member.username ?? ''));
  }
  const checklists = new Map<string, NonNullable<Board['checklists']>>();
  for (const list of [...(board.checklists ?? [])].sort(byPos)) {
    checklists.set(list.idCard, [...(checklists.get(list.idCard) ?? []), list]);
  }
  // Trello lists actions newest first; a task's comments read oldest first.
  const comments = new Map<string, string[]>();
  for (const action of [...(board.actions ?? [])].reverse()) {
    const cardId = action.data?.card?.id;
    if (action.type !== 'commentCard' || !cardId) continue;
    const body = comment(action, memberNames);
    if (body) comments.set(cardId, [...(comments.get(cardId) ?? []), body]);
  }

  const rows: ImportRow[] = [];
  const problems: Problem[] = [];
  for (const card of cards) {
    const title = oneLine(card.name);
    const where = `Card “${title.slice(0, 60) || card.id}”`;
    const items = (checklists.get(card.id) ?? []).map((list) => {
      const lines = [...(list.checkItems ?? [])]
        .sort(byPos)
        .map((item) => `- [${item.state === 'complete' ? 'x' : ' '}] ${oneLine(item.name)}`);
      return [`**${oneLine(list.name ?? '') || 'Checklist'}**`, ...lines].join('\n');
    });
    const description = [multiLine(card.desc ?? '').trim(), ...items]
      .filter((part) => part !== '')
      .join('\n\n');
    const dueDate = card.due ? calendarDate(card.due) : null;
    const row = {
      title,
      description,
      status: openLists.get(card.idList) || null,
      priority: 'none' as const,
      assignee: emails.get(card.idMembers?.[0] ?? '') ?? null,
      due_date: dueDate,
      labels: distinctNames((card.idLabels ?? []).flatMap((id) => labels.get(id) ?? [])),
      comments: comments.get(card.id) ?? [],
    };
    const reasons = rowProblems(row);
    if (card.due && !dueDate) reasons.push(`the due date “${oneLine(card.due).slice(0, 40)}” is not a date`);
    if (reasons.length > 0) problems.push({ where, message: reasons.join('; ') });
    else rows.push({ where, ...row });
  }

  const notes: string[] = [];
  if (archivedCards > 0)
    notes.push(`${archivedCards} archived ${archivedCards === 1 ? 'card is' : 'cards are'} left out.`);
  if (archivedLists > 0)
    notes.push(
      `${archivedLists} archived ${archivedLists === 1 ? 'list is' : 'lists are'} left out` +
        (cardsOfArchivedLists > 0 ? `, with the ${cardsOfArchivedLists} cards on them.` : '.'),
    );
  const unmatched = cards.filter(
    (c) => (c.idMembers?.length ?? 0) > 0 && !emails.has(c.idMembers?.[0] ?? ''),
  ).length;
  if (unmatched > 0)
    notes.push(
      `${unmatched} ${unmatched === 1 ? 'card has a member' : 'cards have members'} without an email address in the export: left unassigned.`,
    );
  return {
    ok: true,
    file: {
      source: 'Trello',
      rows,
      problems,
      notes,
      statuses: [...new Set(openLists.values())]
        .filter((name) => name !== '')
        .map((name) => ({ name, category: categoryOf(name) })),
      labelColors,
    },
  };
}

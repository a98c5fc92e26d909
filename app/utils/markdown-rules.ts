// The rules the task document's markdown shares with the database: which lines are checklist items
// (the tick RPC, private.checklist_items, numbers them the same way), which members an `@name`
// names (notifications follow the same rule in SQL), and what a task key looks like. Pure, for the
// server and the browser alike.

/** A checklist item: `- [ ] text`, `* [x] text`, `1. [X] text`, `2) [ ] text`, indented or not. */
export const CHECKLIST_LINE = /^\s*([-*+]|\d+[.)])\s+\[( |x|X)\]\s+(.*)$/;

/** A fence that opens or closes a code block: three or more backticks or tildes, indented at most 3. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

export interface ChecklistItem {
  /** 1, 2, 3… in order of appearance. */
  n: number;
  /** The line's index in the text (0-based, lines split at \n). */
  line: number;
  checked: boolean;
  /** The item's text as written, after the box. */
  text: string;
}

/** The lines of a text, split as the database splits them (at \n; a \r before it is dropped). */
export function textLines(text: string): string[] {
  return text.split('\n').map((line) => line.replace(/\r$/, ''));
}

/**
 * The checklist items of a text: every line matching CHECKLIST_LINE outside a fenced code block. A
 * fence closes on a line of the same character, at least as long, with nothing after it but spaces.
 */
export function checklistItems(text: string): ChecklistItem[] {
  const items: ChecklistItem[] = [];
  let fence: string | null = null;
  textLines(text).forEach((line, index) => {
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && f[2]!.trim() === '') fence = null;
      return;
    }
    if (f) {
      fence = f[1]!;
      return;
    }
    const m = CHECKLIST_LINE.exec(line);
    if (m) items.push({ n: items.length + 1, line: index, checked: m[2] !== ' ', text: m[3]! });
  });
  return items;
}

/** Done and total, as the card shows them ("2/5"). */
export function checklistProgress(text: string): { done: number; total: number } {
  const items = checklistItems(text);
  return { done: items.filter((i) => i.checked).length, total: items.length };
}

/**
 * A mention: `@` and a token of letters, digits, dots, underscores and dashes, the `@` not right
 * after a letter, digit or underscore (`ana@example.com` mentions nobody).
 */
export const MENTION_IN_TEXT = /(?<![\p{L}\p{N}_])@([\p{L}\p{N}._-]+)/gu;

/** A name folded for mentions: lower case, everything but letters and digits removed. */
export function foldName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Whether `@token` names a member called `displayName`: the token, folded, equals the whole name
 * folded, or the name's first word folded ("@ana" and "@anasilva" both name "Ana Silva").
 */
export function mentionNames(token: string, displayName: string): boolean {
  const wanted = foldName(token);
  if (wanted === '') return false;
  const firstWord = displayName.trim().split(/\s+/)[0] ?? '';
  return foldName(displayName) === wanted || foldName(firstWord) === wanted;
}

/** The members an `@token` names (any number: two people called Ana are both mentioned). */
export function mentionedMembers<M extends { name: string }>(token: string, members: readonly M[]): M[] {
  return members.filter((m) => mentionNames(token, m.name));
}

/** A project's key as a task key spells it (any case), and a task's number. */
const PROJECT_KEY = '[A-Za-z][A-Za-z0-9]{1,9}';
const TASK_NUMBER = '[1-9][0-9]{0,8}';

/** A task key in text: a project key (any case) and a number, `WEB-12`, not inside a longer word. */
export const TASK_KEY = new RegExp(
  `(?<![\\p{L}\\p{N}_-])(${PROJECT_KEY})-(${TASK_NUMBER})(?![\\p{L}\\p{N}_]|-[\\p{L}\\p{N}])`,
  'gu',
);

const TYPED_TASK_KEY = new RegExp(`^\\s*(${PROJECT_KEY})-(${TASK_NUMBER})\\s*$`);

/** `WEB-12` typed into a field (any case, spaces around allowed): the key and the number, else null. */
export function parseTaskKey(typed: string): { key: string; number: number } | null {
  const match = TYPED_TASK_KEY.exec(typed);
  if (!match?.[1] || !match[2]) return null;
  return { key: match[1].toUpperCase(), number: Number(match[2]) };
}

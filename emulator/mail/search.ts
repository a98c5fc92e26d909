// The mailbox's search language, Mailpit's (axllent/mailpit internal/search): terms ANDed; `to:x`,
// `from:x`, `subject:x`, bare words and quoted phrases; a leading `-` or `!` negates a term.
import type { Address } from '../lib/mail.ts';
import type { Entry } from './store.ts';

interface Term {
  field: 'to' | 'from' | 'subject' | 'text';
  value: string;
  negate: boolean;
}

export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  const pattern = /([-!]?)(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g;
  for (let match = pattern.exec(query); match; match = pattern.exec(query)) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    const negate = match[1] !== '';
    const key = (match[2] ?? '').toLowerCase();
    const value = (match[3] ?? match[4] ?? '').toLowerCase();
    if (key === 'to' || key === 'from' || key === 'subject') {
      if (value) terms.push({ field: key, value, negate });
    } else {
      // An unknown key is searched for as plain text, key included.
      const word = key ? `${match[2]}:${value}` : value;
      if (word.trim()) terms.push({ field: 'text', value: word.toLowerCase(), negate });
    }
  }
  return terms;
}

export function matches(entry: Entry, terms: Term[]): boolean {
  const mail = entry.mail;
  const addressText = (a: Address) => `${a.Name} <${a.Address}>`.toLowerCase();
  return terms.every((term) => {
    let hit: boolean;
    switch (term.field) {
      case 'to':
        hit = mail.To.some((a) => addressText(a).includes(term.value));
        break;
      case 'from':
        hit = addressText(mail.From).includes(term.value);
        break;
      case 'subject':
        hit = mail.Subject.toLowerCase().includes(term.value);
        break;
      default:
        hit = mail.Subject.toLowerCase().includes(term.value) || entry.searchText.includes(term.value);
    }
    return hit !== term.negate;
  });
}

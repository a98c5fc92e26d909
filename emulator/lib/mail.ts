// The message every part of the backend hands to the mailbox (auth's emails, the SMTP listener's),
// and the plain-text reading of an HTML body that both the sender and the mailbox's snippets use.

export interface Address {
  Name: string;
  Address: string;
}

export interface OutgoingMail {
  from: Address;
  to: Address[];
  subject: string;
  text: string;
  html: string;
  /** The message's own Message-ID (without angle brackets), when it came over SMTP with one. */
  messageId?: string;
  /** Its List-Unsubscribe and List-Unsubscribe-Post headers (RFC 2369, RFC 8058), when it has them. */
  listUnsubscribe?: { header: string; post: string };
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
};

export function decodeEntities(text: string): string {
  return text.replace(
    /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);/g,
    (entity, name: string) => {
      if (name.startsWith('#')) {
        const code =
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
          return entity;
        return String.fromCodePoint(code);
      }
      return NAMED_ENTITIES[name] ?? NAMED_ENTITIES[name.toLowerCase()] ?? entity;
    },
  );
}

function attribute(attributes: string, name: string): string | null {
  const pattern = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');
  const match = pattern.exec(attributes);
  if (!match) return null;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '').trim();
}

const stripTags = (html: string): string => html.replace(/<[^>]*>/g, '');
// Re-escape text produced early so the single decoding pass at the end restores it exactly.
const reescape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A readable plain-text version of an HTML email: links become `label (URL)`, blocks become lines. */
export function htmlToText(html: string): string {
  let s = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!doctype[^>]*>/gi, '')
    .replace(/<(head|style|script|title|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/\s+/g, ' ');

  s = s.replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_whole, attributes: string, inner: string) => {
    const label = decodeEntities(stripTags(inner)).replace(/\s+/g, ' ').trim();
    const href = attribute(attributes, 'href');
    let text: string;
    if (!href || href.startsWith('#') || /^javascript:/i.test(href)) text = label;
    else if (!label || label === href || `mailto:${label}` === href) text = href;
    else text = `${label} (${href})`;
    return reescape(text);
  });

  s = s
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<hr\b[^>]*>/gi, '\n\n---\n\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/?(?:p|h[1-6]|table|blockquote|ul|ol|pre)\b[^>]*>/gi, '\n\n')
    .replace(/<\/?(?:div|tr|li|section|header|footer|article|center|tbody|thead|dl|dt|dd)\b[^>]*>/gi, '\n')
    .replace(/<\/t[dh]\s*>/gi, ' ');
  s = decodeEntities(stripTags(s)).replace(/\u00a0/g, ' ');

  return s
    .split('\n')
    .map((line) => line.replace(/[ \t\f\r]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Defaults, used when supabase/config.toml names no template for a kind of email.

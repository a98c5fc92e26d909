// The mailbox's web pages: the list of messages and one message, its HTML body in a sandboxed frame
// (Mailpit's web UI does the same job; these pages are this project's own).
import { htmlToText } from '../lib/mail.ts';
import { type Entry, formatAddress } from './store.ts';

const escapeHtml = (value: string): string =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src http: https: data:',
  "frame-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f7f9}
header{background:#fff;border-bottom:1px solid #e3e5e8;padding:12px 16px}
header a{color:inherit;text-decoration:none;font-weight:600}
main{max-width:960px;margin:0 auto;padding:16px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #e3e5e8;border-radius:8px;overflow:hidden}
th,td{text-align:left;padding:10px 12px;border-bottom:1px solid #eef0f2;vertical-align:top}
th{font-size:13px;color:#57606a;font-weight:600;background:#fafbfc}
tr:last-child td{border-bottom:0}
td a{color:#0b57d0;text-decoration:none;font-weight:500}
td a:hover{text-decoration:underline}
.muted{color:#6e7781;font-size:13px}
.time{white-space:nowrap}
.empty{background:#fff;border:1px dashed #d0d7de;border-radius:8px;padding:32px;text-align:center;color:#6e7781}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;background:#fff;border:1px solid #e3e5e8;border-radius:8px;padding:12px 16px;margin:0 0 16px}
dt{color:#57606a}
dd{margin:0;word-break:break-word}
h1{font-size:20px;margin:0 0 12px;word-break:break-word}
h2{font-size:15px;margin:20px 0 8px;color:#57606a}
iframe{width:100%;height:480px;border:1px solid #e3e5e8;border-radius:8px;background:#fff}
pre{white-space:pre-wrap;word-break:break-word;background:#fff;border:1px solid #e3e5e8;border-radius:8px;padding:12px;margin:0;font-size:13px}
ul.links{background:#fff;border:1px solid #e3e5e8;border-radius:8px;margin:0;padding:8px 8px 8px 28px}
ul.links a{word-break:break-all;color:#0b57d0}
footer{margin-top:24px}
code{background:#eef0f2;border-radius:4px;padding:1px 4px}
@media (max-width:600px){.hide-narrow{display:none}th,td{padding:8px}main{padding:8px}}
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="/">Mailbox</a></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function formatTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function indexPage(entries: Entry[], baseUrl: string): string {
  const rows = entries
    .map(({ mail }) => {
      const to = mail.To.map(formatAddress).join(', ');
      return `<tr>
<td class="time"><time datetime="${escapeHtml(mail.Created)}">${escapeHtml(formatTime(mail.Created))}</time></td>
<td class="hide-narrow">${escapeHtml(to)}</td>
<td><a href="/view/${encodeURIComponent(mail.ID)}">${escapeHtml(mail.Subject || '(no subject)')}</a>
<div class="muted">${escapeHtml(to)}</div></td>
</tr>`;
    })
    .join('\n');
  const list = entries.length
    ? `<table>
<thead><tr><th>Time</th><th class="hide-narrow">To</th><th>Subject</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p class="empty">No messages yet. Emails sent by the local auth server show up here.</p>';
  return page(
    `Mailbox (${entries.length})`,
    `<h1>Messages <span class="muted">(${entries.length})</span></h1>
${list}
<footer class="muted">Reload to see new mail. JSON API: <code>${escapeHtml(baseUrl)}/api/v1/messages</code>; delete everything with <code>curl -X DELETE ${escapeHtml(baseUrl)}/api/v1/messages</code>.</footer>`,
  );
}

function linksIn(html: string): string[] {
  const found = new Set<string>();
  const pattern = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    const href = htmlToText(`<a href="x">${match[1] ?? match[2] ?? match[3] ?? ''}</a>`).replace(
      / \(x\)$/,
      '',
    );
    if (/^https?:\/\//i.test(href)) found.add(href);
  }
  return [...found];
}

// Makes links in the framed message open in a new tab, without pushing the doctype (quirks mode).
function withBaseTarget(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head\b[^>]*>/i.exec(html);
  if (head)
    return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + base + html.slice(doctype[0].length);
  return base + html;
}

export function viewPage(entry: Entry): string {
  const m = entry.mail;
  const links = linksIn(m.HTML);
  const linkList = links.length
    ? `<h2>Links</h2>
<ul class="links">
${links.map((href) => `<li><a href="${escapeHtml(href)}" rel="noreferrer noopener" target="_blank">${escapeHtml(href)}</a></li>`).join('\n')}
</ul>`
    : '';
  // Links inside the message open in a new tab; the frame itself can run nothing.
  const frameDoc = withBaseTarget(m.HTML);
  const htmlPart = m.HTML
    ? `<h2>HTML</h2>
<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" title="Message body" srcdoc="${escapeHtml(frameDoc)}"></iframe>`
    : '';
  return page(
    m.Subject || '(no subject)',
    `<h1>${escapeHtml(m.Subject || '(no subject)')}</h1>
<dl>
<dt>From</dt><dd>${escapeHtml(formatAddress(m.From))}</dd>
<dt>To</dt><dd>${escapeHtml(m.To.map(formatAddress).join(', '))}</dd>
<dt>Date</dt><dd><time datetime="${escapeHtml(m.Created)}">${escapeHtml(formatTime(m.Created))}</time></dd>
<dt>ID</dt><dd>${escapeHtml(m.ID)}</dd>
</dl>
${linkList}
${htmlPart}
<h2>Text</h2>
<pre>${escapeHtml(m.Text)}</pre>`,
  );
}

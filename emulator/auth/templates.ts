// Renders Supabase Auth (GoTrue) email templates. Those are Go `html/template` files; this supports
// the subset that Supabase documents for email templates: `{{ .Field }}`, `{{ .Data.key }}`,
// `{{ if .X }}…{{ else if .Y }}…{{ else }}…{{ end }}` (optionally `if not .X`), `{{/* comments */}}`
// and the `{{-` / `-}}` whitespace trim markers. Substituted values are HTML-escaped, as Go does.

export interface TemplateData {
  ConfirmationURL: string;
  Token: string;
  TokenHash: string;
  SiteURL: string;
  RedirectTo: string;
  Email: string;
  NewEmail: string;
  Data: Record<string, unknown>;
}

export type DefaultTemplateName =
  'confirmation' | 'invite' | 'magic_link' | 'recovery' | 'email_change' | 'reauthentication';

/** A template that uses syntax this renderer does not understand, or is malformed (e.g. an `if` without `end`). */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

interface Condition {
  path: string[];
  negate: boolean;
}

type Node =
  | { kind: 'text'; value: string }
  | { kind: 'field'; path: string[]; urlStart: boolean }
  | { kind: 'if'; branches: { condition: Condition | null; body: Node[] }[] };

type Token =
  { kind: 'text'; value: string } | { kind: 'action'; source: string; body: string; urlStart: boolean };

const FIELD_PATH = /^\.([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/;
// An action placed right at the start of a URL-valued attribute, e.g. href="{{ .ConfirmationURL }}".
const URL_ATTRIBUTE_START =
  /\s(?:href|src|action|formaction|cite|poster|background|longdesc|xlink:href)\s*=\s*["']?\s*$/i;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const actionPattern = /\{\{([\s\S]*?)\}\}/g;
  let literalSoFar = '';
  let position = 0;
  let trimNext = false;
  for (let match = actionPattern.exec(source); match; match = actionPattern.exec(source)) {
    let inner = match[1] ?? '';
    let text = source.slice(position, match.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    const trimBefore = /^-\s/.test(inner) || inner === '-';
    const trimAfter = /\s-$/.test(inner);
    if (trimBefore) {
      text = text.replace(/\s+$/, '');
      inner = inner.slice(1);
    }
    if (trimAfter) inner = inner.slice(0, -1);
    trimNext = trimAfter;
    if (text) tokens.push({ kind: 'text', value: text });
    literalSoFar = (literalSoFar + text).slice(-200);
    const body = inner.trim();
    tokens.push({ kind: 'action', source: match[0], body, urlStart: URL_ATTRIBUTE_START.test(literalSoFar) });
    // Output was produced here, so whatever follows is no longer at the start of an attribute value.
    if (body.startsWith('.')) literalSoFar = '';
    position = match.index + match[0].length;
  }
  let rest = source.slice(position);
  if (trimNext) rest = rest.replace(/^\s+/, '');
  if (rest) tokens.push({ kind: 'text', value: rest });
  return tokens;
}

function parsePath(expression: string, action: string): string[] {
  const match = FIELD_PATH.exec(expression);
  if (!match) throw new TemplateError(`Unsupported template action ${action}`);
  const rest = match[2] ? match[2].slice(1).split('.') : [];
  return [match[1] ?? '', ...rest];
}

function parseCondition(expression: string, action: string): Condition {
  const trimmed = expression.trim();
  const negated = /^not\s+(\S+)$/.exec(trimmed);
  if (negated) return { path: parsePath(negated[1] ?? '', action), negate: true };
  return { path: parsePath(trimmed, action), negate: false };
}

function parse(source: string): Node[] {
  const tokens = tokenize(source);
  let index = 0;

  // Parses nodes until `else`/`end` (returned as the terminator) or the end of input.
  function parseBlock(): { nodes: Node[]; terminator: Extract<Token, { kind: 'action' }> | null } {
    const nodes: Node[] = [];
    while (index < tokens.length) {
      const token = tokens[index++]!;
      if (token.kind === 'text') {
        nodes.push({ kind: 'text', value: token.value });
        continue;
      }
      const body = token.body;
      if (/^\/\*[\s\S]*\*\/$/.test(body)) continue; // {{/* comment */}}
      if (body === 'end' || body === 'else' || /^else\s+if\s/.test(body)) return { nodes, terminator: token };
      if (/^if\s/.test(body)) {
        nodes.push(parseIf(body.slice(2), token.source));
        continue;
      }
      if (body.startsWith('.')) {
        nodes.push({ kind: 'field', path: parsePath(body, token.source), urlStart: token.urlStart });
        continue;
      }
      throw new TemplateError(`Unsupported template action ${token.source}`);
    }
    return { nodes, terminator: null };
  }

  function parseIf(expression: string, action: string): Node {
    const branches: { condition: Condition | null; body: Node[] }[] = [];
    let condition: Condition | null = parseCondition(expression, action);
    for (;;) {
      const { nodes, terminator } = parseBlock();
      branches.push({ condition, body: nodes });
      if (!terminator) throw new TemplateError(`${action} has no matching {{ end }}`);
      if (terminator.body === 'end') return { kind: 'if', branches };
      if (condition === null) throw new TemplateError(`Unexpected ${terminator.source} after {{ else }}`);
      condition =
        terminator.body === 'else'
          ? null
          : parseCondition(terminator.body.replace(/^else\s+if\s+/, ''), terminator.source);
    }
  }

  const { nodes, terminator } = parseBlock();
  if (terminator) throw new TemplateError(`Unexpected ${terminator.source} without a matching {{ if }}`);
  return nodes;
}

// ---------------------------------------------------------------------------------------------
// Rendering

const TOP_LEVEL_FIELDS = new Set([
  'ConfirmationURL',
  'Token',
  'TokenHash',
  'SiteURL',
  'RedirectTo',
  'Email',
  'NewEmail',
  'Data',
]);

function lookup(data: TemplateData, path: string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined || !TOP_LEVEL_FIELDS.has(head)) return undefined;
  let value: unknown = (data as unknown as Record<string, unknown>)[head];
  for (const key of rest) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 0) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&#34;')
    .replace(/'/g, '&#39;');
}

// Like Go's html/template: a value that starts a URL attribute may not bring its own dangerous scheme.
function safeUrlStart(value: string): string {
  const scheme = /^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  if (!scheme) return value;
  const name = (scheme[1] ?? '').toLowerCase();
  return name === 'http' || name === 'https' || name === 'mailto' ? value : '#ZgotmplZ';
}

function renderNodes(nodes: Node[], data: TemplateData): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') {
      out += node.value;
    } else if (node.kind === 'field') {
      let value = stringify(lookup(data, node.path));
      if (node.urlStart) value = safeUrlStart(value);
      out += escapeHtml(value);
    } else {
      for (const branch of node.branches) {
        const condition = branch.condition;
        const taken = condition === null || truthy(lookup(data, condition.path)) !== condition.negate;
        if (taken) {
          out += renderNodes(branch.body, data);
          break;
        }
      }
    }
  }
  return out;
}

/**
 * Renders a GoTrue email template. Unknown fields render as ''. Throws a TemplateError when the
 * template uses syntax outside the supported subset or is malformed.
 */
export function renderTemplate(source: string, data: TemplateData): string {
  return renderNodes(parse(source), data);
}

// ---------------------------------------------------------------------------------------------
// Plain-text alternative

export const DEFAULT_TEMPLATES: Record<DefaultTemplateName, { subject: string; html: string }> = {
  confirmation: {
    subject: 'Confirm Your Signup',
    html: `<h2>Confirm your sign-up</h2>
<p>Open this link to confirm your email address:</p>
<p><a href="{{ .ConfirmationURL }}">Confirm my email address</a></p>
<p>Or enter this code: {{ .Token }}</p>
`,
  },
  invite: {
    subject: 'You have been invited',
    html: `<h2>You have been invited</h2>
<p>Someone invited you to create an account on {{ .SiteURL }}. Open this link to accept:</p>
<p><a href="{{ .ConfirmationURL }}">Accept the invitation</a></p>
<p>Or enter this code: {{ .Token }}</p>
`,
  },
  magic_link: {
    subject: 'Your Magic Link',
    html: `<h2>Your sign-in link</h2>
<p>Open this link to sign in:</p>
<p><a href="{{ .ConfirmationURL }}">Sign me in</a></p>
<p>Or enter this code: {{ .Token }}</p>
`,
  },
  recovery: {
    subject: 'Reset Your Password',
    html: `<h2>Reset your password</h2>
<p>Open this link to choose a new password:</p>
<p><a href="{{ .ConfirmationURL }}">Reset my password</a></p>
<p>Or enter this code: {{ .Token }}</p>
`,
  },
  email_change: {
    subject: 'Confirm Email Change',
    html: `<h2>Confirm your new email address</h2>
<p>Open this link to change your email address from {{ .Email }} to {{ .NewEmail }}:</p>
<p><a href="{{ .ConfirmationURL }}">Confirm the change</a></p>
<p>Or enter this code: {{ .Token }}</p>
`,
  },
  reauthentication: {
    subject: 'Confirm reauthentication',
    html: `<h2>Confirm it is you</h2>
<p>Enter this code to continue: {{ .Token }}</p>
`,
  },
};

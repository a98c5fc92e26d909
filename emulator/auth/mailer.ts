// Builds GoTrue's emails from the project's templates and hands them to the mailbox.
import { readFileSync } from 'node:fs';
import type { AuthSettings, TemplateName } from '../config.ts';
import { type OutgoingMail, htmlToText } from '../lib/mail.ts';
import { DEFAULT_TEMPLATES, renderTemplate, type TemplateData } from './templates.ts';

/** The `type` GoTrue puts in /verify links for each template. */
const VERIFY_TYPE: Record<TemplateName, string> = {
  confirmation: 'signup',
  invite: 'invite',
  magic_link: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
  reauthentication: 'reauthentication',
};

export interface EmailRequest {
  template: TemplateName;
  to: string;
  otp: string;
  tokenHash: string;
  redirectTo: string;
  email: string;
  newEmail?: string;
  data?: Record<string, unknown>;
}

export class Mailer {
  constructor(
    private readonly settings: AuthSettings,
    private readonly apiExternalUrl: string,
    private readonly deliver: (mail: OutgoingMail) => void,
  ) {}

  confirmationUrl(template: TemplateName, tokenHash: string, redirectTo: string): string {
    const url = new URL(`${this.apiExternalUrl}/auth/v1/verify`);
    url.searchParams.set('token', tokenHash);
    url.searchParams.set('type', VERIFY_TYPE[template]);
    url.searchParams.set('redirect_to', redirectTo);
    return url.toString();
  }

  send(request: EmailRequest): void {
    const configured = this.settings.email.templates[request.template];
    const fallback = DEFAULT_TEMPLATES[request.template];
    const source = configured?.contentPath ? readFileSync(configured.contentPath, 'utf8') : fallback.html;
    const subjectSource = configured?.subject || fallback.subject;
    const data: TemplateData = {
      ConfirmationURL: this.confirmationUrl(request.template, request.tokenHash, request.redirectTo),
      Token: request.otp,
      TokenHash: request.tokenHash,
      SiteURL: this.settings.siteUrl,
      RedirectTo: request.redirectTo,
      Email: request.email,
      NewEmail: request.newEmail ?? '',
      Data: request.data ?? {},
    };
    const html = renderTemplate(source, data);
    this.deliver({
      from: this.settings.email.from,
      to: [{ Name: '', Address: request.to }],
      subject: htmlToText(renderTemplate(subjectSource, data)).trim(),
      html,
      text: htmlToText(html),
    });
  }
}

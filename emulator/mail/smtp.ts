// The mailbox's SMTP door, like the CLI's `[local_smtp] smtp_port`: the app sends its own emails
// (invitations) over SMTP exactly as it would to a real provider, and they land in the mailbox.
// No TLS and no authentication: it listens on loopback only and keeps nothing but the mailbox copy.
import { SMTPServer } from 'smtp-server';
import type { OutgoingMail } from '../lib/mail.ts';
import { readMessage } from './mime.ts';

const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface SmtpListener {
  port: number;
  /** smtp://127.0.0.1:<port>, what SMTP_URL should say. */
  url: string;
  close(): Promise<void>;
}

export async function startSmtp(options: {
  port: number;
  host?: string;
  deliver: (mail: OutgoingMail) => void;
}): Promise<SmtpListener> {
  const host = options.host ?? '127.0.0.1';
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_MESSAGE_BYTES,
    banner: 'Crewboard local mailbox',
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message too big'), { responseCode: 552 }));
          return;
        }
        const envelope = session.envelope;
        try {
          options.deliver(
            readMessage(Buffer.concat(chunks), {
              from: envelope.mailFrom ? envelope.mailFrom.address : undefined,
              to: envelope.rcptTo.map((r) => r.address),
            }),
          );
          callback();
        } catch {
          callback(Object.assign(new Error('Message could not be read'), { responseCode: 554 }));
        }
      });
    },
  });
  // A broken client connection must never take the backend down.
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `SMTP port ${options.port} on ${host} is already in use.`
            : `SMTP could not listen on ${host}:${options.port}: ${error.message}`,
        ),
      );
    };
    server.server.once('error', onError);
    server.listen(options.port, host, () => {
      server.server.off('error', onError);
      resolve();
    });
  });
  const bound = server.server.address();
  const port = typeof bound === 'object' && bound ? bound.port : options.port;
  return {
    port,
    url: `smtp://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

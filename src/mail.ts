import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";

/** One outgoing email. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Hands one mail over: to the SMTP server when configured, otherwise into an outbox folder as an .eml file. */
export interface Mailer {
  /** Resolves once the mail was accepted; rejects with the reason it was not. */
  send(mail: Mail): Promise<void>;
}

/** How long a silent SMTP server is waited for (connecting, its greeting, any one reply). */
const SMTP_TIMEOUT_MS = 15_000;

/** Builds the transport of a server: SMTP for `smtpUrl`, or files under `<dataDir>/outbox`; `from` is the sender. */
export function createMailer(smtpUrl: string | null, dataDir: string, from: string, log: Logger): Mailer {
  // nodemailer is loaded on the first mail: most processes never send one.
  const nodemailer = () => import("nodemailer").then((m) => m.default);
  if (smtpUrl) {
    return {
      async send(mail) {
        const transport = (await nodemailer()).createTransport({ url: smtpUrl, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS });
        try {
          await transport.sendMail({ from, ...mail });
        } finally {
          transport.close();
        }
        log.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
    };
  }
  const outbox = path.join(dataDir, "outbox");
  return {
    async send(mail) {
      const transport = (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: "unix" });
      const info = await transport.sendMail({ from, ...mail });
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, file }, "no SMTP configured: mail written to the outbox folder");
    },
  };
}

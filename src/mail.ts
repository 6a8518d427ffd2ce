import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";

/** One outgoing email. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: over SMTP when configured, otherwise into an outbox folder as .eml files. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

const FROM = "Rookery <noreply@rookery.invalid>";

/** Builds the mailer for a server: SMTP for `smtpUrl`, or files under `<dataDir>/outbox`. */
export function createMailer(smtpUrl: string | null, dataDir: string, log: Logger): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: FROM, ...mail });
        log.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
    };
  }
  const outbox = path.join(dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: FROM, ...mail });
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, file }, "no SMTP configured: mail written to the outbox folder");
    },
  };
}

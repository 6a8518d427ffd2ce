import fs from "node:fs/promises";
import path from "node:path";
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
  // nodemailer is loaded on the first mail: most processes never send one.
  const nodemailer = () => import("nodemailer").then((m) => m.default);
  if (smtpUrl) {
    return {
      async send(mail) {
        const transport = (await nodemailer()).createTransport(smtpUrl);
        await transport.sendMail({ from: FROM, ...mail });
        log.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
    };
  }
  const outbox = path.join(dataDir, "outbox");
  return {
    async send(mail) {
      const transport = (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: "unix" });
      const info = await transport.sendMail({ from: FROM, ...mail });
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, file }, "no SMTP configured: mail written to the outbox folder");
    },
  };
}

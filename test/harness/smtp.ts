import { SMTPServer } from "smtp-server";

/** One mail as the test SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** While true, every mail is refused with a temporary error (451), as a mail server that cannot take it now. */
  refusing: boolean;
  stop(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 (no TLS, no auth). */
export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!state.refusing) return callback();
      callback(Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    get refusing() {
      return state.refusing;
    },
    set refusing(on: boolean) {
      state.refusing = on;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

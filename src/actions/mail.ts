/**
 * Outgoing mail, queued durably and retried.
 *
 * Every mail is first stored (outgoing_mail) and then tried at once by the process that queued
 * it; a request waits a moment for that first try, never for a silent mail server. A failed try
 * is repeated after a minute, then after twice as long each time (an hour at most), for a day;
 * a mail that still fails is given up on: logged, counted in /metrics, and the user whose action
 * sent it hears of it from Notification Bot. A try takes its mail first (a claim in the
 * database), so two processes (a server and the rookery command, or a cluster's) never send one
 * mail twice, and a mail whose try was cut short by a crash is tried again later. Retries are the
 * server's timer's (in a cluster, the holder of the jobs lease); a queued mail survives restarts.
 */
import { write, type AppContext } from "../context.js";
import { claimMail, deleteMail, dueMailIds, insertMail, markMailFailed, retryMailAt, type OutgoingMailRow } from "../db/queries/outgoing-mail.js";
import { userById } from "../db/queries/users.js";
import type { Mail } from "../mail.js";
import { internalSendDirect } from "./notification-bot.js";

/** A mail is tried for this long before it is given up on. */
export const MAIL_RETRY_WINDOW_MS = 86_400_000;
/** The first retry waits this long; each next one twice as long as the one before. */
export const FIRST_RETRY_MS = 60_000;
const LONGEST_RETRY_MS = 3_600_000;
/** A try under way holds its mail this long; a try cut short by a crash is repeated after it. */
const CLAIM_MS = 10 * 60_000;
/** How long queueing waits for the first try before returning (the try goes on). */
const FIRST_TRY_WAIT_MS = 2000;
/** Mail taken per pass of the timer. */
const BATCH = 100;

/** A mail and who it is from: the organisation, and the user whose action sent it (told if it finally fails). */
export interface QueuedMail extends Mail {
  realmId?: number;
  senderId?: number;
}

/** Tries under way, per context: a command or a stopping server waits for them before closing the database. */
const underWay = new WeakMap<AppContext, Set<Promise<boolean>>>();

/**
 * Stores a mail and tries it at once; resolves once it is stored and the first try ended or took
 * too long: "sent", or "queued" (it will be tried again).
 */
export async function queueMail(ctx: AppContext, mail: QueuedMail): Promise<"sent" | "queued"> {
  const now = ctx.clock.now();
  const id = await write(ctx, (tx) =>
    insertMail(tx, { to_address: mail.to, subject: mail.subject, body: mail.text, realm_id: mail.realmId ?? null, sender_id: mail.senderId ?? null, created_at: now, next_attempt_at: now }),
  );
  const attempt = tryMail(ctx, id).catch((error: unknown) => {
    ctx.log.error({ err: error, mail: id }, "mail attempt failed");
    return false;
  });
  const tries = underWay.get(ctx) ?? new Set();
  underWay.set(ctx, tries);
  tries.add(attempt);
  void attempt.finally(() => tries.delete(attempt));
  let timer: NodeJS.Timeout | undefined;
  const sent = await Promise.race([attempt, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), FIRST_TRY_WAIT_MS)))]);
  clearTimeout(timer);
  return sent ? "sent" : "queued";
}

/** Resolves when every try this context started has ended. */
export async function mailTriesSettled(ctx: AppContext): Promise<void> {
  await Promise.all([...(underWay.get(ctx) ?? [])]);
}

/** Tries every mail due now (the server's timer runs this). */
export async function deliverDueMail(ctx: AppContext, stopping: () => boolean): Promise<void> {
  for (;;) {
    const ids = await dueMailIds(ctx.db, ctx.clock.now(), BATCH);
    for (const id of ids) {
      if (stopping()) return;
      await tryMail(ctx, id);
    }
    if (ids.length < BATCH) return;
  }
}

/** The wait before the next try, after `attempts` tries. */
export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/** One try of a due mail: whether this try sent it. */
async function tryMail(ctx: AppContext, id: number): Promise<boolean> {
  const now = ctx.clock.now();
  const row = await write(ctx, (tx) => claimMail(tx, id, now, now + CLAIM_MS));
  if (!row) return false;
  try {
    await ctx.mailer.send({ to: row.to_address, subject: row.subject, text: row.body });
  } catch (error) {
    await deferOrGiveUp(ctx, row, error instanceof Error ? error.message : String(error));
    return false;
  }
  await write(ctx, (tx) => deleteMail(tx, row.id));
  ctx.metrics.mail("sent");
  return true;
}

async function deferOrGiveUp(ctx: AppContext, row: OutgoingMailRow, reason: string): Promise<void> {
  const now = ctx.clock.now();
  const createdAt = Number(row.created_at);
  if (now - createdAt < MAIL_RETRY_WINDOW_MS) {
    // The last try falls at the end of the day, however the delays add up.
    const next = Math.min(now + retryDelay(row.attempts), createdAt + MAIL_RETRY_WINDOW_MS);
    await write(ctx, async (tx, outbox) => {
      await retryMailAt(tx, row.id, next, reason);
      outbox.invalidate({ cache: "mail", dueAt: next });
    });
    ctx.metrics.mail("deferred");
    ctx.log.warn({ mail: row.id, to: row.to_address, attempts: row.attempts, retryAt: new Date(next).toISOString(), reason }, "mail not accepted; it will be tried again");
    return;
  }
  await write(ctx, async (tx, outbox) => {
    await markMailFailed(tx, row.id, reason);
    const sender = row.sender_id === null ? undefined : await userById(tx, row.sender_id);
    if (sender?.is_active && !sender.is_bot) await internalSendDirect(ctx, tx, outbox, sender, undeliveredNotice(row, reason));
  });
  ctx.metrics.mail("given_up");
  ctx.log.error({ mail: row.id, to: row.to_address, subject: row.subject, attempts: row.attempts, reason }, "mail given up on after a day of tries");
}

/** Notification Bot's message to the user whose mail could not be delivered. */
export function undeliveredNotice(row: { to_address: string; subject: string }, reason: string): string {
  return [`I could not deliver an email to ${row.to_address} (subject: "${row.subject}"), though I tried for a day, and have given up.`, "", `The mail server's last answer: ${reason}`].join("\n");
}

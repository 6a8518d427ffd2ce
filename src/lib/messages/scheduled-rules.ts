import { badRequest } from "../../base/errors.js";

/** Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: a message more than this late is not sent. */
export const LATE_CUTOFF_MS = 10 * 60_000;

/** The latest scheduled_delivery_timestamp accepted: the end of year 9999, as far as Zulip's datetimes go. */
export const MAX_DELIVERY_TIMESTAMP = 253_402_300_799;

/** A delivery time (seconds) must be after the present, when scheduling and when rescheduling. */
export function checkDeliveryTime(seconds: number, now: number): void {
  if (seconds * 1000 <= now) throw badRequest("Scheduled delivery time must be in the future.");
}

/**
 * What Notification Bot tells a sender whose message could not be sent (Zulip 9's
 * send_failed_scheduled_message_notification, its `<time:…> ` and the space after it included).
 */
export function failureNotice(scheduledMs: number, error: string): string {
  return [
    `The message you scheduled for <time:${pythonUtcDatetime(scheduledMs)}>  was not sent because of the following error:`,
    `> ${error}`,
    "[View scheduled messages](#scheduled)",
    "",
  ].join("\n\n");
}

/** str() of an aware UTC datetime in Python: `2024-05-01 12:00:00+00:00`. */
function pythonUtcDatetime(ms: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = ms % 1000 === 0 ? "" : `.${iso.slice(20, 23)}000`;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00:00`;
}

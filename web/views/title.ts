/** The page title's view part ("Inbox", "#Denmark > castle"); notifications.tsx adds the unread count and the organisation's name. */
import { signal } from "@preact/signals";

export const viewTitle = signal("");

/** Names the open view in the page title. */
export function setViewTitle(title: string): void {
  viewTitle.value = title;
}

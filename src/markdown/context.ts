/** The organisation data the renderer resolves names against. */

/** A user as mentions see it. */
export interface MentionUser {
  id: number;
  fullName: string;
}

/**
 * A match of a linkifier: where it starts, and group 0 then every capture group (undefined when it
 * took no part). Group 1 is the character before the match (or empty at the start), group 2 the
 * match, the last group the character after.
 */
export interface LinkifierMatch {
  index: number;
  groups: (string | undefined)[];
}

/** A realm linkifier ready to apply, on a linear-time engine. */
export interface RenderLinkifier {
  /** The leftmost match starting at or after `from` (the text before `from` is still context). */
  find(text: string, from: number): LinkifierMatch | null;
  /** The link target for a match (the URL template expanded with the match's named groups). */
  url(match: LinkifierMatch): string;
}

/** An uploaded image as its preview shows it; thumbnailUrl is null until the thumbnail exists. */
export interface UploadPreview {
  width: number;
  height: number;
  animated: boolean;
  thumbnailUrl: string | null;
}

/** Synchronous look-ups into the organisation, supplied by the caller from memory. */
export interface RenderContext {
  /** All active users with that full name (case-insensitive). */
  userByName(fullName: string): MentionUser[];
  userById(id: number): MentionUser | undefined;
  groupByName(name: string): { id: number; name: string } | undefined;
  channelByName(name: string): { id: number; name: string } | undefined;
  realmEmoji?(name: string): { id: string; name: string; url: string } | undefined;
  /** The realm's linkifiers, in the order they apply. */
  linkifiers?: readonly RenderLinkifier[];
  /** CPU time one render may spend in linkifiers (default 25 ms); past it the render has no linkifier links. */
  linkifierBudgetMs?: number;
  /** The organisation's inline_image_preview setting: previews of images, uploaded or linked (off when absent). */
  inlineImagePreview?: boolean;
  /** The preview of an uploaded image, by path id; undefined for files that are not images. */
  uploadPreview?(pathId: string): UploadPreview | undefined;
  /** The sender's translate_emoticons setting (":)" becomes an emoji). */
  translateEmoticons?: boolean;
  /** The current time in ms, for a `<time:…>` that gives no date (today is assumed). */
  now?: () => number;
  realmUrl: string; // e.g. "http://127.0.0.1:9991"
}

/** A context that knows no users, groups, channels or custom emoji. */
export function emptyRenderContext(realmUrl: string): RenderContext {
  return {
    userByName: () => [],
    userById: () => undefined,
    groupByName: () => undefined,
    channelByName: () => undefined,
    realmUrl,
  };
}

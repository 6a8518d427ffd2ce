/** The organisation data the renderer resolves names against. */

/** A user as mentions see it. */
export interface MentionUser {
  id: number;
  fullName: string;
}

/**
 * A realm linkifier ready to apply. `regex` is global with the u flag: group 1 is the character
 * before the match (or empty at the start), group 2 the match, the last group the character after.
 */
export interface RenderLinkifier {
  regex: RegExp;
  /** The link target for a match (the URL template expanded with the match's named groups). */
  url(match: RegExpExecArray): string;
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

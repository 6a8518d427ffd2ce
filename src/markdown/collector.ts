/** What a render found, gathered while rendering. */

/** Mutable findings of one render; index.ts turns them into the RenderResult. */
export interface Collector {
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  links: string[];
  hasImage: boolean;
  /** Milliseconds spent in linkifiers so far, and whether that went past the render's budget. */
  linkifierMs: number;
  linkifiersOverBudget: boolean;
}

/** A collector with nothing found yet. */
export function newCollector(): Collector {
  return {
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    links: [],
    hasImage: false,
    linkifierMs: 0,
    linkifiersOverBudget: false,
  };
}

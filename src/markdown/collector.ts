/** What a render found, gathered while rendering. */

/** Mutable findings of one render; index.ts turns them into the RenderResult. */
export interface Collector {
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  links: string[];
  hasImage: boolean;
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
  };
}

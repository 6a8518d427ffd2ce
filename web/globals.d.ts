/** The hashed name of KaTeX's stylesheet, put in by web/build.ts (loaded only when a message shows math). */
declare const KATEX_CSS: string;

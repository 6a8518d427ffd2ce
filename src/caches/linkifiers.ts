import type { Db } from "../db/index.js";
import { linkifiersOfRealm } from "../db/queries/realm-filters.js";
import type { RenderLinkifier } from "../markdown/context.js";

/**
 * Each realm's linkifiers compiled for the renderer, loaded on first use. The actions that change
 * linkifiers call `forget` after their commit, so the next message rendered uses the new set; a
 * load that overlaps such a change is returned to its callers but not kept.
 */
export class LinkifierCache {
  private readonly realms = new Map<number, readonly RenderLinkifier[]>();
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly db: Db,
    /** Compiles one stored linkifier for the renderer (null when it cannot be). */
    private readonly compile: (pattern: string, urlTemplate: string) => RenderLinkifier | null,
  ) {}

  /** The realm's linkifiers in the order they apply (an empty list when it has none). */
  async of(realmId: number): Promise<readonly RenderLinkifier[]> {
    const cached = this.realms.get(realmId);
    if (cached) return cached;
    const started = this.generations.get(realmId) ?? 0;
    const rows = await linkifiersOfRealm(this.db, realmId);
    const compiled = rows.flatMap((row) => this.compile(row.pattern, row.url_template) ?? []);
    if ((this.generations.get(realmId) ?? 0) === started) this.realms.set(realmId, compiled);
    return compiled;
  }

  /** Drops a realm's linkifiers after a committed change. */
  forget(realmId: number): void {
    this.realms.delete(realmId);
    this.generations.set(realmId, (this.generations.get(realmId) ?? 0) + 1);
  }

  /** Drops every realm (changes were missed). */
  forgetAll(): void {
    for (const realmId of this.realms.keys()) this.forget(realmId);
  }
}

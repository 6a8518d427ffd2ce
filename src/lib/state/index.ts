import type { StateSection } from "./types.js";
import { realmUserSection } from "./realm-user.js";

export type { StateOptions, StateSection } from "./types.js";

/** Every section of /register state; each area of the API adds its own here. */
export const stateSections: readonly StateSection[] = [realmUserSection];

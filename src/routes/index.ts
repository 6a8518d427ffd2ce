import type { Endpoint } from "../http/endpoint.js";
import { authEndpoints } from "./auth.js";
import { userEndpoints } from "./users.js";

/** Every REST endpoint the server answers. */
export const allEndpoints: readonly Endpoint[] = [...authEndpoints, ...userEndpoints];

/** Names of the system groups every realm has. */
export const SystemGroups = {
  NOBODY: "role:nobody",
  OWNERS: "role:owners",
  ADMINISTRATORS: "role:administrators",
  MODERATORS: "role:moderators",
  FULL_MEMBERS: "role:fullmembers",
  MEMBERS: "role:members",
  EVERYONE: "role:everyone",
  EVERYONE_ON_INTERNET: "role:internet",
} as const;

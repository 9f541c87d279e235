/** The owner key of a task: every part must match for a request to see it. */
export const ownerKey = (subject: string, server: string, client: string, resource: string): string =>
  JSON.stringify([subject, server, client, resource]);

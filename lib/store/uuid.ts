// The one spelling of a row id (Postgres `uuid`, what `randomUUID` makes): every read that takes an
// id from a URL, a form or the command line checks it here first, so a malformed id is "not found"
// (or a usage error), never a database error about an invalid uuid.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` is spelt as a row id. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** Newest issue date first; ties newest created first, then by id descending: the order invoice lists take. */
export const newestIssuedFirst = (
  a: { readonly issueDate: string; readonly createdAt: Date; readonly id: string },
  b: { readonly issueDate: string; readonly createdAt: Date; readonly id: string }
): number => {
  if (a.issueDate !== b.issueDate) return a.issueDate < b.issueDate ? 1 : -1
  if (a.createdAt.getTime() !== b.createdAt.getTime()) return b.createdAt.getTime() - a.createdAt.getTime()
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1
}

/** Lists of names in messages, kept short. */

/** The first few of `names` for a message, with how many more there are: `a, b, c, d, e, and 3 more`. */
export function firstNames(names: readonly string[], separator = ', '): string {
  return names.slice(0, 5).join(separator) + (names.length > 5 ? `${separator}and ${names.length - 5} more` : '');
}

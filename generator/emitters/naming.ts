/** Names in generated code: camelCase members, PascalCase types, kebab-case package names. */

function words(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

const pascalNames = new Map<string, string>();

/** `payment_intents` → `PaymentIntents`. Memoized: emitters ask for the same few spec names thousands of times. */
export function pascalCase(name: string): string {
  let pascal = pascalNames.get(name);
  if (pascal === undefined) {
    pascal = words(name)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('');
    pascalNames.set(name, pascal);
  }
  return pascal;
}

/** `payment_intents` → `paymentIntents`; `api_search` → `apiSearch`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** `issue_tracking` → `issue-tracking`. */
export function kebabCase(name: string): string {
  return words(name).join('-').toLowerCase();
}

/** A property key: bare when it is an identifier, quoted otherwise (`'assignee.any'`). */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A TypeScript string literal. */
export function stringLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

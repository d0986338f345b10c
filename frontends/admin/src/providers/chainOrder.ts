/**
 * The chain's names after moving `name` by `by` places (-1: up, tried sooner; 1: down), or null when it cannot move
 * (already first or last, or not in the chain). PUT /api/admin/provider-order takes the whole order, every name once.
 */
export function moveName(names: readonly string[], name: string, by: -1 | 1): string[] | null {
  const from = names.indexOf(name);
  const to = from + by;
  if (from < 0 || to < 0 || to >= names.length) return null;
  const order = [...names];
  order.splice(from, 1);
  order.splice(to, 0, name);
  return order;
}

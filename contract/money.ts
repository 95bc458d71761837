/**
 * Money as people read it (docs/product.md#constants: Nigerian naira), the one formatter of the SPA, the
 * server's messages and its mails (decision 036): always two decimals, as a currency is printed.
 */
const nairaFormat = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });

/** 12500 → '₦12,500.00'; a numeric string (a database `numeric`) too; missing or not a number → '₦0.00'. */
export function formatNaira(value: number | string | null | undefined): string {
  const amount = typeof value === 'string' ? Number(value) : value;
  return nairaFormat.format(typeof amount === 'number' && Number.isFinite(amount) ? amount : 0);
}

// How the console's inspector shows amounts (major units with the currency) and delivery outcomes (the badge's colour); served into the page as source.

/**
 * An amount in minor units as the major-unit amount with its currency, exactly (string
 * arithmetic, no float): the currency's minor-unit exponent is ISO 4217's, as the runtime's
 * `Intl` knows it (KZT and RUB 2, JPY 0, KWD 3). Undefined for a code `Intl` does not accept.
 * Self-contained: the inspector's page receives its source.
 *
 * @example
 * majorAmount(150000, 'KZT'); // '1500.00 KZT'
 * majorAmount(500, 'JPY'); // '500 JPY'
 */
export function majorAmount(amount: number, currency: string): string | undefined {
  if (!Number.isSafeInteger(amount)) return undefined;
  let digits: number | undefined;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits;
  } catch {
    return undefined;
  }
  if (digits === undefined) return undefined;
  const sign = amount < 0 ? '-' : '';
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return `${sign}${whole}${digits > 0 ? `.${fraction}` : ''} ${currency}`;
}

/**
 * A webhook delivery attempt's badge: green only when the receiver answered 2xx (delivered);
 * any other status (a 3xx is not followed), an error, a time-out or a dropped attempt is red.
 * Self-contained: the inspector's page receives its source.
 *
 * @example
 * deliveryOutcome(200, null); // { text: '200', kind: 'ok' }
 * deliveryOutcome(null, 'timeout'); // { text: 'failed', kind: 'bad' }
 * deliveryOutcome(302, null); // { text: '302', kind: 'bad' }
 */
export function deliveryOutcome(
  status: number | null,
  error: string | null,
): { text: string; kind: 'ok' | 'bad' } {
  if (status !== null)
    return { text: String(status), kind: status >= 200 && status < 300 ? 'ok' : 'bad' };
  return { text: error?.startsWith('dropped') === true ? 'dropped' : 'failed', kind: 'bad' };
}

// The form every id must have before it reaches a store: what the sandbox makes, and what restore() may bring.

/** The longest id accepted in a path or a query (the sandbox's own ids are 28 characters). */
export const MAX_ID_LENGTH = 255;

/** 1 to 255 characters, none of them a control character (a store may use them as separators). */
const ID_FORM = new RegExp(`^[^\\p{Cc}]{1,${MAX_ID_LENGTH}}$`, 'u');

/**
 * Whether `id` has the form of an id (1 to `MAX_ID_LENGTH` characters, no control character):
 * anything else names no object in any store, and never reaches one.
 *
 * @example
 * isIdForm('pay_7GfQ2xAbCdEfGhIjKlMnOpQr'); // true
 * isIdForm('pay_7GfQ2x\u0000m'); // false
 */
export function isIdForm(id: string): boolean {
  return ID_FORM.test(id);
}

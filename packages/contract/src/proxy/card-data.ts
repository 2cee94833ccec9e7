// Card data a recording never keeps: a card number (a Luhn-valid run of 13–19 digits) is cut to its first six and last four digits, as PCI DSS allows a number to be shown, and a security code is masked whole.

/** 13–19 digits, optionally in groups split by one space or dash, starting as a card network's numbers do (2–6), not inside a longer run of digits or a word (an id). */
const CARD_LIKE = /(?<![0-9A-Za-z_])[2-6](?:[ -]?[0-9]){12,18}(?![0-9A-Za-z_])/g;

/** A JSON member or a form/query field that holds a card's security code. */
const SECURITY_CODE_JSON =
  /("(?:cvc|cvv|cvc2|cvv2|csc|cid|security_code)"\s*:\s*)("(?:[^"\\]|\\.)*"|[0-9]+)/gi;
const SECURITY_CODE_FIELD = /((?:^|[?&])(?:cvc|cvv|cvc2|cvv2|csc|cid|security_code)=)[^&#]*/gi;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * `text` with every card number cut to its first six and last four digits (the others `*`,
 * separators kept) and every security code (`"cvc": "123"`, `cvv=123`) replaced by `***`.
 *
 * @example
 * maskCardData('{"number":"4242 4242 4242 4242","cvc":"123"}');
 * // '{"number":"4242 42** **** 4242","cvc":"***"}'
 */
export function maskCardData(text: string): string {
  if (!/[0-9]{2}/.test(text)) return text;
  return text
    .replace(CARD_LIKE, (match) => {
      const digits = match.replace(/[ -]/g, '');
      if (!luhnValid(digits)) return match;
      let seen = 0;
      return match.replace(/[0-9]/g, (digit) => {
        seen += 1;
        return seen <= 6 || seen > digits.length - 4 ? digit : '*';
      });
    })
    .replace(SECURITY_CODE_JSON, '$1"***"')
    .replace(SECURITY_CODE_FIELD, '$1***');
}

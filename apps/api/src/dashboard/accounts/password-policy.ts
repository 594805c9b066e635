import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/**
 * Local parts shorter than this are not looked for inside a password: "ops" or "jo" would refuse many good
 * passphrases by chance, and a password built on a name that short gains little from it.
 */
const MIN_LOCAL_PART_CHECKED = 4;

/**
 * The commonest passwords of public breaches, as zxcvbn-ts ships them (about 49,000, lower case). A password is
 * common when it is one of them, or one of them with only digits and symbols around it ("Password1234!").
 */
let common: Set<string> | undefined;
const commonPasswords = (): Set<string> =>
  (common ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase())));

/** The core of a password once the digits and symbols at both ends are removed (`!!Summer2024` → `summer`). */
const coreOf = (password: string): string => password.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');

/**
 * Why a password is refused, naming the rule, or undefined when it may be used. The rules follow NIST SP 800-63B
 * §5.1.1.2: a length floor and ceiling, no check of character classes, and a refusal of passwords that are
 * commonly used, repetitive, or derived from the account's own details.
 */
export function passwordProblem(password: string, email?: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === '') return 'Password must not be only spaces';
  const lower = password.toLowerCase();
  if ([...lower].every((character) => character === lower[0])) {
    return 'Password must not be one character repeated';
  }
  const core = coreOf(lower);
  if (commonPasswords().has(lower) || (core !== '' && commonPasswords().has(core))) {
    return 'Password is too common (it is on a list of passwords from public breaches); choose another';
  }
  const localPart = email?.trim().toLowerCase().split('@')[0]?.split('+')[0] ?? '';
  if (localPart.length >= MIN_LOCAL_PART_CHECKED && lower.includes(localPart)) {
    return 'Password must not contain the email address’s name (the part before @)';
  }
  return undefined;
}

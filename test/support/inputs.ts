/** A well-formed UUID that no record has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A string of exactly `length` characters, for length limits. */
export const text = (length: number, char = 'x'): string => char.repeat(length);

/** An address of exactly `length` characters (64 local + domain of 63-character labels), valid for IsEmail. */
export function emailOfLength(length: number): string {
  const local = 'a'.repeat(64);
  let domainBody = length - local.length - 1 - '.com'.length;
  const labels: string[] = [];
  while (domainBody > 0) {
    const label = Math.min(63, domainBody);
    labels.push('b'.repeat(label));
    domainBody -= label + 1;
  }
  const email = `${local}@${labels.join('.')}.com`;
  if (email.length !== length) throw new Error(`cannot build an email of ${length} characters`);
  return email;
}

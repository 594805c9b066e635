import { describe, expect, it } from '@jest/globals';
import { passwordProblem } from './password-policy.js';

describe(passwordProblem.name, () => {
  it.each([
    ['short', 'Password must be at least 12 characters'],
    ['x'.repeat(201), 'Password must be at most 200 characters'],
    [' '.repeat(12), 'Password must not be only spaces'],
    ['\t \t \t \t \t \t ', 'Password must not be only spaces'],
    ['aaaaaaaaaaaa', 'Password must not be one character repeated'],
    ['AAAAaaaaAAAA', 'Password must not be one character repeated'],
    ['password1234', 'Password is too common (it is on a list of passwords from public breaches); choose another'],
    ['Password1234!', 'Password is too common (it is on a list of passwords from public breaches); choose another'],
    ['QWERTYUIOP12', 'Password is too common (it is on a list of passwords from public breaches); choose another'],
    ['123456789012', 'Password is too common (it is on a list of passwords from public breaches); choose another'],
    ['!!iloveyou2024', 'Password is too common (it is on a list of passwords from public breaches); choose another'],
  ])('refuses %j naming the rule', (password, problem) => {
    expect(passwordProblem(password, 'someone@example.com')).toBe(problem);
  });

  it('refuses a password containing the email’s name, in any letter case, ignoring a +tag', () => {
    const problem = 'Password must not contain the email address’s name (the part before @)';
    expect(passwordProblem('my Harbourmaster key', 'harbourmaster@example.com')).toBe(problem);
    expect(passwordProblem('JANE.DOE is the best', 'jane.doe+dashboard@example.com')).toBe(problem);
    // A name of three letters or fewer is too likely to appear by chance to refuse on.
    expect(passwordProblem('stops the shops now', 'ops@example.com')).toBeUndefined();
  });

  it('accepts a long passphrase and a random password', () => {
    expect(passwordProblem('correct horse battery staple', 'ops@harbour-lettings.co.uk')).toBeUndefined();
    expect(passwordProblem('a long enough password', 'owner@dashboard-lettings.co.uk')).toBeUndefined();
    expect(passwordProblem('hT4r9-QzLw2v', 'demo@example.com')).toBeUndefined();
  });
});

import { hashPassword, UNKNOWN_USER_HASH, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('verifies the password it hashed and refuses another', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
  });

  it('salts every hash: the same password gives two different hashes', async () => {
    const [first, second] = await Promise.all([hashPassword('same password!'), hashPassword('same password!')]);
    expect(first).not.toBe(second);
  });

  it('never matches a malformed hash or the unknown-user hash', async () => {
    await expect(verifyPassword('anything at all', 'plain-text')).resolves.toBe(false);
    await expect(verifyPassword('anything at all', UNKNOWN_USER_HASH)).resolves.toBe(false);
  });
});

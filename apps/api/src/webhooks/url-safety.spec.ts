import { checkUrlForm, isPrivateAddress, resolveSafely } from './url-safety.js';

describe('webhook URL safety', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('treats %s as private', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('treats %s as public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  it('refuses http unless allowed, and credentials always', () => {
    const strict = { allowHttp: false, allowPrivate: false };
    expect(() => checkUrlForm('http://example.com/hook', strict)).toThrow('url must use https');
    expect(checkUrlForm('http://example.com/hook', { ...strict, allowHttp: true }).host).toBe('example.com');
    expect(() => checkUrlForm('https://user:pw@example.com/', strict)).toThrow('credentials');
    expect(() => checkUrlForm('not a url', strict)).toThrow('absolute URL');
  });

  it('refuses literal private hosts unless allowed', async () => {
    const strict = { allowHttp: true, allowPrivate: false };
    for (const host of ['127.0.0.1', '169.254.169.254', '[::1]', '10.0.0.7']) {
      await expect(resolveSafely(host, strict)).rejects.toThrow('may not reach');
    }
    await expect(resolveSafely('[::1]', { ...strict, allowPrivate: true })).resolves.toEqual([
      { address: '::1', family: 6 },
    ]);
  });

  it('checks what a name resolves to (localhost is loopback)', async () => {
    await expect(resolveSafely('localhost', { allowHttp: true, allowPrivate: false })).rejects.toThrow('may not reach');
  });
});

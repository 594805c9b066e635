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

  // Issue 21, point 7: each of these was accepted before the whole special-purpose registries were refused.
  it.each([
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, hex'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2002:a9fe:a9fe::', '6to4 of the metadata address'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b::10.0.0.1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['100::1', 'discard-only'],
    ['5f00::1', 'segment routing'],
    ['fec0::1', 'deprecated site-local'],
    ['ff02::1', 'multicast'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.31.196.1', 'AS112'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['fe80::1%eth0', 'a zone'],
    ['example.com', 'not an address'],
  ])('treats %s (%s) as private', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2a00:1450:4001:82b::200e',
    '192.0.3.1',
    '203.0.114.1',
  ])('treats %s as public', (address) => expect(isPrivateAddress(address)).toBe(false));

  it('refuses http unless allowed, and credentials always', () => {
    const strict = { allowHttp: false, allowPrivate: false };
    expect(() => checkUrlForm('http://example.com/hook', strict)).toThrow('url must use https');
    expect(checkUrlForm('http://example.com/hook', { ...strict, allowHttp: true }).host).toBe('example.com');
    expect(() => checkUrlForm('https://user:pw@example.com/', strict)).toThrow('credentials');
    expect(() => checkUrlForm('not a url', strict)).toThrow('absolute URL');
  });

  it('refuses literal private hosts unless allowed', async () => {
    const strict = { allowHttp: true, allowPrivate: false };
    for (const host of ['127.0.0.1', '169.254.169.254', '[::1]', '10.0.0.7', '[::7f00:1]', '[2002:7f00:1::]']) {
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

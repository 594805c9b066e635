import { describe, expect, it } from '@jest/globals';
import { dispositionOf } from './send-object.js';

describe(dispositionOf.name, () => {
  it('names the file in UTF-8 (RFC 8187) beside an ASCII fallback', () => {
    expect(dispositionOf('café.png')).toBe(`attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`);
    expect(dispositionOf('quote "final".pdf')).toBe(
      `attachment; filename="quote _final_.pdf"; filename*=UTF-8''quote%20%22final%22.pdf`,
    );
  });

  it('percent-encodes what RFC 8187 does not allow bare, which encodeURIComponent leaves', () => {
    expect(dispositionOf("it's (1)*.pdf")).toBe(
      `attachment; filename="it's (1)*.pdf"; filename*=UTF-8''it%27s%20%281%29%2A.pdf`,
    );
  });
});

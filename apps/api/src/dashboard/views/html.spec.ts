import { escapeHtml, html, raw } from './html.js';

describe('html template tag', () => {
  it('escapes interpolated text, so user input cannot become markup', () => {
    const name = '<script>alert("x")</script> & \'quotes\'';
    expect(html`<td>${name}</td>`.text).toBe(
      '<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</td>',
    );
  });

  it('keeps nested templates and raw markup, and joins lists', () => {
    const rows = ['a<', 'b'].map((cell) => html`<li>${cell}</li>`);
    // prettier-ignore
    const list = html`<ul>${rows}</ul>${raw('<hr>')}${null}${false}${0}`;
    expect(list.text).toBe('<ul><li>a&lt;</li><li>b</li></ul><hr>0');
  });

  it('escapes every character that matters in text and attributes', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

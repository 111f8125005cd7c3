/**
 * Mail templates render as the server sends them and the console previews them (issue 25): Liquid
 * with the event's values; in the HTML part nothing of the template or of a value becomes markup.
 */
import { describe, expect, it } from 'vitest';
import { MAIL_EVENTS } from '../../resources/templates/events';
import { renderMail, templateProblem } from '../../resources/templates/render';

describe('renderMail', () => {
  it('escapes the template and every value in the HTML, even through the raw filter, and keeps line breaks', () => {
    const mail = renderMail(
      { subject: 'For {{ name }}\n<i>now</i>', message: '<p>{{ name }}</p>\n{{ name | raw }} & {{ name | escape }}' },
      { name: '<script>x("")</script>' },
    );
    expect(mail.subject).toBe('For <script>x("")</script> <i>now</i>');
    expect(mail.text).toBe('<p><script>x("")</script></p>\n<script>x("")</script> & &lt;script&gt;x(&#34;&#34;)&lt;/script&gt;');
    expect(mail.html).not.toMatch(/<(p|script)\b/);
    expect(mail.html).toContain('&lt;p&gt;&lt;script&gt;x(&quot;&quot;)&lt;/script&gt;&lt;/p&gt;<br>\n&lt;script&gt;');
  });

  it('cannot be tricked into markup by the marks that set values apart, in the template or in a value', () => {
    const mail = renderMail({ subject: 's', message: '\u0001<i>\u0002{{ a }}<u>{{ b }}' }, { a: '\u0002<b>', b: '</b>\u0001' });
    expect(mail.html).not.toMatch(/<\/?[biu]>/);
    expect(mail.html).toContain('&lt;i&gt;&lt;b&gt;&lt;u&gt;&lt;/b&gt;');
  });

  it('renders every seeded template with its own sample values, and each passes its own check', () => {
    for (const [serial, event] of Object.entries(MAIL_EVENTS)) {
      expect(templateProblem(event.template, event), serial).toBeNull();
      const mail = renderMail(event.template, event.variables);
      expect(mail.text, serial).not.toMatch(/{{|{%/);
      expect(mail.text, serial).toContain(`Hello ${event.variables.name},`);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { stripSecrets, stripUrl } from './strip-secrets.ts';

const opts = { secretParams: ['api_key'], secretValues: ['Jane Doe jane@example.com', 'abc123key'] };

describe('stripSecrets', () => {
  it('redacts secret query params anywhere in free text', () => {
    const out = stripSecrets(
      'GET https://api.stlouisfed.org/fred/x?series_id=GDP&api_key=zzz999&file_type=json',
      opts,
    );
    expect(out).toBe('GET https://api.stlouisfed.org/fred/x?series_id=GDP&api_key=***&file_type=json');
  });

  it('redacts literal secret values, also URL-encoded and form-encoded', () => {
    const out = stripSecrets(
      'ua=Jane Doe jane@example.com enc=Jane%20Doe%20jane%40example.com plus=Jane+Doe+jane@example.com k=abc123key',
      opts,
    );
    expect(out).not.toContain('Jane');
    expect(out).not.toContain('abc123key');
    expect(out.match(/\*\*\*/g)?.length).toBe(4);
  });

  it('redacts a secret echoed in another letter case, also URL-encoded with lower-case hex (issue 52)', () => {
    const out = stripSecrets(
      'up=ABC123KEY mixed=aBc123Key enc=jane%20doe%20JANE%40EXAMPLE.COM hex=Jane%20Doe%20jane%40example.com form=JANE+DOE+JANE%40EXAMPLE.COM',
      opts,
    );
    expect(out).toBe('up=*** mixed=*** enc=*** hex=*** form=***');
  });

  it('leaves text without secrets unchanged', () => {
    expect(stripSecrets('nothing to see', opts)).toBe('nothing to see');
  });
});

describe('stripUrl', () => {
  it('removes secret params entirely so the key does not depend on them', () => {
    expect(stripUrl('https://h.example/a?series_id=GDP&api_key=one', opts)).toBe(
      stripUrl('https://h.example/a?api_key=two&series_id=GDP', opts),
    );
    expect(stripUrl('https://h.example/a?series_id=GDP&API_KEY=one', opts)).toBe(
      'https://h.example/a?series_id=GDP',
    );
  });

  it('does not re-encode a URL that has no secret params', () => {
    const url = 'https://h.example/a?q=a%20b&x=1:2';
    expect(stripUrl(url, opts)).toBe(url);
  });

  it('drops userinfo credentials', () => {
    expect(stripUrl('https://user:pw@h.example/a', opts)).toBe('https://h.example/a');
  });
});

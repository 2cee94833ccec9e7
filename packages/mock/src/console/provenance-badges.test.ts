import { openapiDocument, sandboxDocument } from '@payment-service/openapi';
import { describe, expect, it } from 'vitest';
import { badge, withProvenanceBadges } from './provenance-badges.js';

describe('withProvenanceBadges', () => {
  const shown = withProvenanceBadges(openapiDocument);

  it('badges createPayment as documented with its section, keeping the description', () => {
    const description = shown.paths['/v1/payments'].post.description;
    expect(description).toMatch(
      /^<span class="provenance provenance-documented"[^>]*>documented · §4\.1<\/span>\n\n/,
    );
    expect(description).toContain(openapiDocument.paths['/v1/payments'].post.description);
  });

  it('badges an inferred field with its reason', () => {
    const status = shown.components.schemas.PaymentStatus.description;
    expect(status).toContain('provenance-inferred');
    expect(status).toContain('The document states only that statuses include SUCCEEDED');
  });

  it('gives every field of every schema a badge, inherited where the field has none', () => {
    for (const document of [
      withProvenanceBadges(openapiDocument),
      withProvenanceBadges(sandboxDocument),
    ]) {
      for (const [name, schema] of Object.entries(document.components.schemas)) {
        const properties =
          (schema as { properties?: Record<string, { description?: string }> }).properties ?? {};
        for (const [field, property] of Object.entries(properties)) {
          expect(property.description, `${name}.${field}`).toMatch(
            /class="provenance provenance-(documented|inferred)"/,
          );
        }
      }
    }
  });

  it('leaves examples and the spec document itself untouched', () => {
    expect(JSON.stringify(shown.paths['/v1/payments'].post.requestBody)).not.toContain(
      'provenance-reason">Sandbox',
    );
    expect(openapiDocument.paths['/v1/payments'].post.description).not.toContain('<span');
  });

  it('escapes the text it puts in HTML', () => {
    expect(badge({ kind: 'inferred', detail: '<script>x</script>' })).toContain('&#60;script&#62;');
  });
});

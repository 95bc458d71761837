import { describe, expect, it } from 'vitest';
import { productionRefusal } from './world';

/** The walk's guard: a server reporting production is refused unless FLOWS_ALLOW_PRODUCTION=true. */
describe('productionRefusal', () => {
  it('refuses production, unless allowed; walks anything else', () => {
    expect(productionRefusal('https://club.ng', 'production', undefined)).toMatch(
      /reports itself as production/,
    );
    expect(productionRefusal('https://club.ng', 'production', 'false')).toMatch(
      /FLOWS_ALLOW_PRODUCTION=true/,
    );
    expect(productionRefusal('https://club.ng', 'production', 'true')).toBeNull();
    expect(productionRefusal('https://staging.club.ng', 'development', undefined)).toBeNull();
    expect(productionRefusal('https://old.club.ng', undefined, undefined)).toBeNull();
  });
});

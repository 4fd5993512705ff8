import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { architecturePage, moduleEdges, moduleTable } from '../../scripts/architecture-page.js';

describe('docs/architecture.md', () => {
  const committed = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');

  it('lists the modules, the module graph and the providers as they are (`npm run docs:architecture`)', () => {
    expect(committed, 'run `npm run docs:architecture` and commit docs/architecture.md').toBe(
      architecturePage(committed),
    );
  });

  it('describes every module of src/', () => {
    expect(moduleTable()).not.toContain('describe it in scripts/architecture-page.ts');
  });

  it('reads the graph from the imports: the composition root reaches every layer, and http the domain', () => {
    const edges = moduleEdges().map(([from, to]) => `${from}->${to}`);
    for (const to of ['config', 'delivery', 'domain', 'http', 'store', 'webhooks']) {
      expect(edges).toContain(`compose->${to}`);
    }
    expect(edges).toContain('http->domain');
    // The domain is lint-guarded against HTTP and config: the graph must agree.
    expect(edges).not.toContain('domain->http');
    expect(edges).not.toContain('domain->config');
  });

  it('has no arrow that runs back up: the domain imports no other module, and no two modules import each other, even through others', () => {
    const edges = moduleEdges();
    expect(edges.filter(([from]) => from === 'domain')).toEqual([]);
    // Layers peeled from the bottom: a module whose every import is already placed. What is
    // never placed imports, through some path, a module that imports it back.
    const modules = new Set(edges.flat());
    const placed = new Set<string>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const m of modules)
        if (!placed.has(m) && edges.every(([from, to]) => from !== m || placed.has(to))) {
          placed.add(m);
          changed = true;
        }
    }
    expect([...modules].filter((m) => !placed.has(m))).toEqual([]);
  });
});

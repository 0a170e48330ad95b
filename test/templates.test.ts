/**
 * The handlebars templates are precompiled (generator/emitters/templates/): the committed module is what
 * `npm run build:templates` prints, every template renders as its compiled text does, and a template edited without
 * rebuilding is compiled from its text (never rendered from a stale precompiled copy).
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { describe, expect, test, vi } from 'vitest';
import { PRECOMPILED_URL, precompiledModule } from '../generator/emitters/templates/build-templates.js';
import { TEMPLATES, template, templateText } from '../generator/emitters/templates/index.js';

describe('precompiled templates', () => {
  test('precompiled.generated.ts is current (npm run build:templates)', () => {
    expect(readFileSync(PRECOMPILED_URL, 'utf8') === precompiledModule(), 'precompiled.generated.ts is out of date: run npm run build:templates').toBe(true);
  });

  test('each renders exactly what compiling its text renders', () => {
    const view = { header: 'H', name: '@acme/x', title: 'T', connectors: [{ id: 'a', tools: 2 }], first: { id: 'a' }, toolCount: 2, runtimeName: '@acme/runtime' };
    for (const name of Object.keys(TEMPLATES).filter((n) => !n.startsWith('partial-') || n === 'partial-client')) {
      const partials = name.startsWith('reference-') ? ['envelope', 'errors', 'search'] : [];
      const compiler = Handlebars.create();
      for (const p of partials) compiler.registerPartial(p, templateText(`partial-${p}`));
      let expected: string | Error;
      try {
        expected = compiler.compile(templateText(name), TEMPLATES[name])(view);
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => template(name, partials)(view), name).toThrow();
      else expect(template(name, partials)(view), name).toBe(expected);
    }
  });
});

describe('a template edited since it was precompiled', () => {
  test('is compiled from its text', async () => {
    vi.resetModules();
    vi.doMock('node:fs', async (original) => {
      const fs = await original<typeof import('node:fs')>();
      const readFileSync = ((file: Parameters<typeof fs.readFileSync>[0], options?: unknown) => {
        const text = fs.readFileSync(file, options as BufferEncoding);
        return String(file).endsWith('package-readme.md.hbs') ? `EDITED {{name}}\n${text}` : text;
      }) as typeof fs.readFileSync;
      return { ...fs, readFileSync, default: { ...fs, readFileSync } };
    });
    try {
      const fresh = await import('../generator/emitters/templates/index.js');
      expect(fresh.template('package-readme')({ name: '@acme/payments' }).startsWith('EDITED @acme/payments\n')).toBe(true);
    } finally {
      vi.doUnmock('node:fs');
      vi.resetModules();
    }
  });
});

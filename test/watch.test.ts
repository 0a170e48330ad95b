/**
 * `generate --watch` as a spec author uses it: a first run, then a summary line per save; a save that breaks the spec
 * prints its diagnostics and keeps the output; the next good save regenerates, rewriting only what changed; a config
 * save regenerates too; Ctrl-C ends the watch with exit code 0.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { edit, miniServiceYaml, SHOP_YAML } from './helpers/mini-spec.js';
import { cliBin } from './helpers/run-cli.js';

/** A watch process and the lines it printed so far. */
class Watch {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  constructor(cwd: string) {
    this.child = spawn(process.execPath, [cliBin, 'generate', '--watch'], { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' } });
    this.child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
  }
  /** Waits until stdout or stderr matches `pattern` `count` times. */
  async until(pattern: RegExp, count = 1, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    const global = new RegExp(pattern.source, 'gm');
    while (((this.stdout + this.stderr).match(global) ?? []).length < count) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`);
      if (this.child.exitCode !== null) throw new Error(`watch exited (${this.child.exitCode}):\n${this.stdout}\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A project with the mini spec (spec/connectors/shop.yaml) and a config writing to sdk/. */
async function miniProject(): Promise<{ project: string; shop: string }> {
  const project = await mkdtemp(path.join(os.tmpdir(), 'codegen-watch-'));
  await mkdir(path.join(project, 'spec/connectors'), { recursive: true });
  await writeFile(path.join(project, 'spec/service.yaml'), await miniServiceYaml());
  const shop = path.join(project, 'spec/connectors/shop.yaml');
  await writeFile(shop, SHOP_YAML);
  await writeFile(path.join(project, 'connector-codegen.config.json'), JSON.stringify({ spec: 'spec', output: 'sdk' }));
  return { project, shop };
}

describe('generate --watch', () => {
  test('regenerates on save, survives a broken spec, rewrites only what changed, stops on SIGINT', async () => {
    const { project, shop } = await miniProject();
    await mkdir(path.join(project, 'release'));
    await writeFile(path.join(project, 'release/versions.json'), JSON.stringify({ packages: { shop: { version: '0.1.0' } } }));
    const watch = new Watch(project);
    try {
      await watch.until(/^\[\d\d:\d\d:\d\d\] generated sdk\/: \d+ written, 0 removed, \d+ files, \d+ ms$/m);
      const runtimeFile = path.join(project, 'sdk/runtime/src/client.ts');
      const runtimeMtime = (await stat(runtimeFile)).mtimeMs;

      // A good save: one summary line naming the file; the client changes, the runtime is not rewritten.
      await writeFile(shop, edit(SHOP_YAML, 'title: Shop', 'title: Store'));
      await watch.until(/^\[[\d:]+\] generated sdk\/: \d+ written, 0 removed, \d+ files, \d+ ms \(spec\/connectors\/shop\.yaml changed\)$/m);
      expect(await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8')).toContain('Client of the Store connector');
      expect((await stat(runtimeFile)).mtimeMs).toBe(runtimeMtime);

      // A broken save: diagnostics, the output stays; the watch goes on.
      const client = await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8');
      await writeFile(shop, edit(SHOP_YAML, '    record: customer\n', '    record: custmer\n'));
      await watch.until(/error SPEC018 entity 'customers' names unknown record 'custmer'; did you mean 'customer'\?/);
      await watch.until(/1 error and 1 warning in the spec; nothing was written\. Waiting for the next save\./);
      expect(await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8')).toBe(client);

      // Fixed: regenerated.
      await writeFile(shop, edit(SHOP_YAML, 'title: Shop', 'title: Boutique'));
      await watch.until(/generated sdk\/: \d+ written/, 3);
      expect(await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8')).toContain('Client of the Boutique connector');

      // A config save regenerates too (another scope reaches the package names).
      await writeFile(path.join(project, 'connector-codegen.config.json'), JSON.stringify({ spec: 'spec', output: 'sdk', packages: { scope: '@acme' } }));
      await watch.until(/connector-codegen\.config\.json changed\)$/m);
      expect(JSON.parse(await readFile(path.join(project, 'sdk/shop/package.json'), 'utf8')).name).toBe('@acme/shop');

      // The release state too: a new version (as `release` writes it) reaches the package.
      await writeFile(path.join(project, 'release/versions.json'), JSON.stringify({ packages: { shop: { version: '0.2.0' } } }));
      await watch.until(/release\/versions\.json changed\)$/m);
      expect(JSON.parse(await readFile(path.join(project, 'sdk/shop/package.json'), 'utf8')).version).toBe('0.2.0');
    } finally {
      watch.child.kill('SIGINT');
    }
    const code = await new Promise<number | null>((resolve) => watch.child.on('exit', resolve));
    expect(code).toBe(0);
    expect(watch.stderr).not.toMatch(/\n\s+at |TypeError/);
  }, 180_000);

  test('sees every save of an editor that renames a new file over the old one, and a connectors directory moved back', async () => {
    const { project, shop } = await miniProject();
    /** Saves as vim, JetBrains IDEs and `sed -i` do: the new text in a file beside it, renamed over it. */
    const saveByRename = async (file: string, text: string) => {
      const temp = path.join(path.dirname(file), `.${path.basename(file)}.swp`);
      await writeFile(temp, text);
      await rename(temp, file);
    };
    const watch = new Watch(project);
    try {
      await watch.until(/generated sdk\/: \d+ written/);
      for (const [i, title] of ['Store', 'Boutique', 'Emporium'].entries()) {
        await saveByRename(shop, edit(SHOP_YAML, 'title: Shop', `title: ${title}`));
        await watch.until(/generated sdk\/: \d+ written, 0 removed, \d+ files, \d+ ms \(spec\/connectors\/shop\.yaml changed\)$/m, i + 1);
        expect(await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8')).toContain(`Client of the ${title} connector`);
      }
      // The connectors directory moved away and back (as a branch switch can): watched again where it comes back.
      const connectors = path.join(project, 'spec/connectors');
      await rename(connectors, `${connectors}-away`);
      await watch.until(/Waiting for the next save\. \(spec\/connectors, spec\/connectors-away changed\)$/m);
      await writeFile(path.join(`${connectors}-away`, 'shop.yaml'), edit(SHOP_YAML, 'title: Shop', 'title: Bazaar'));
      await rename(`${connectors}-away`, connectors);
      await watch.until(/generated sdk\/: \d+ written, 0 removed, \d+ files, \d+ ms \(spec\/connectors, spec\/connectors-away[^)]* changed\)$/m);
      expect(await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8')).toContain('Client of the Bazaar connector');
      await saveByRename(shop, edit(SHOP_YAML, 'title: Shop', 'title: Market'));
      await watch.until(/\(spec\/connectors\/shop\.yaml changed\)$/m, 4);
      expect(await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8')).toContain('Client of the Market connector');
    } finally {
      watch.child.kill('SIGINT');
    }
    expect(await new Promise<number | null>((resolve) => watch.child.on('exit', resolve))).toBe(0);
    expect(watch.stderr).not.toMatch(/\n\s+at |TypeError|cannot watch/);
  }, 180_000);

  test('a connector written as JSON (a spec extension the loader reads) is watched like a YAML one', async () => {
    const { project, shop } = await miniProject();
    const shopJson = path.join(path.dirname(shop), 'shop.json');
    const asJson = (yamlText: string) => `${JSON.stringify(parse(yamlText), null, 2)}\n`;
    await rm(shop);
    await writeFile(shopJson, asJson(SHOP_YAML));
    const watch = new Watch(project);
    try {
      await watch.until(/generated sdk\/: \d+ written/);
      await writeFile(shopJson, asJson(edit(SHOP_YAML, 'title: Shop', 'title: Store')));
      await watch.until(/generated sdk\/: \d+ written, 0 removed, \d+ files, \d+ ms \(spec\/connectors\/shop\.json changed\)$/m);
      expect(await readFile(path.join(project, 'sdk/shop/src/client.ts'), 'utf8')).toContain('Client of the Store connector');
    } finally {
      watch.child.kill('SIGINT');
    }
    expect(await new Promise<number | null>((resolve) => watch.child.on('exit', resolve))).toBe(0);
  }, 180_000);
});

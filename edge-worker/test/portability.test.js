// The worker runs on web-standard APIs only (so it ports to Fastly Compute): no Node module, no
// Node global, no Cloudflare-only binding beyond the optional Cache API.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

const SRC = new URL('../src/', import.meta.url);

test('src/ imports only its own modules and uses no Node API', () => {
  const files = readdirSync(SRC).filter((f) => f.endsWith('.js'));
  assert.ok(files.length >= 8);
  for (const f of files) {
    const text = readFileSync(new URL(f, SRC), 'utf8');
    for (const m of text.matchAll(/^import .* from '([^']+)';$/gm)) assert.match(m[1], /^\.\/[a-z0-9-]+\.js$/, `${f} imports ${m[1]}`);
    assert.doesNotMatch(text, /\brequire\(|\bprocess\.|\bBuffer\b|\b__dirname\b|node:/, f);
  }
});

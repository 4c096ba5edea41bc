// Runs the worker under the real workerd binary (the npm package's), as Cloudflare runs it:
// writes a workerd config and the worker's modules into a temp folder and starts
// `workerd serve` on a loopback port. Used by the tests and by `npm run serve`.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const SRC = join(here, '..', 'src');
export const COMPATIBILITY_DATE = '2025-09-01';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function capnpString(s) {
  return JSON.stringify(String(s));
}

/** The workerd config text for the worker's modules (index.js first) with these text bindings. */
export function config(modules, vars, port) {
  const ordered = ['index.js', ...modules.filter((m) => m !== 'index.js')];
  const bindings = Object.entries(vars)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `    (name = ${capnpString(k)}, text = ${capnpString(v)})`)
    .join(',\n');
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .edgeWorker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const edgeWorker :Workerd.Worker = (
  modules = [
${ordered.map((m) => `    (name = ${capnpString(m)}, esModule = embed ${capnpString(m)})`).join(',\n')}
  ],
  compatibilityDate = ${capnpString(COMPATIBILITY_DATE)},
  bindings = [
${bindings}
  ],
  globalOutbound = "internet",
);
`;
}

function workerdBinary() {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve('workerd/package.json'));
  return join(pkg, 'bin', 'workerd');
}

/**
 * Starts workerd with the worker and these vars/secrets (all text bindings, as `wrangler`
 * gives them); resolves once it answers: {url, port, stop(), output()}. `main` names another
 * main module (a test's), which may import the worker's modules; `echo` prints workerd's output.
 */
export async function startWorkerd(vars, { port, main = null, echo = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'edge-worker-'));
  const modules = readdirSync(SRC).filter((f) => f.endsWith('.js'));
  for (const m of modules) copyFileSync(join(SRC, m), join(dir, m));
  if (main !== null) {
    // Another main module (a test's) beside the worker's modules, in index.js's place.
    copyFileSync(join(SRC, 'index.js'), join(dir, 'worker-index.js'));
    copyFileSync(main, join(dir, 'index.js'));
    modules.push('worker-index.js');
  }
  const listen = port ?? (await freePort());
  writeFileSync(join(dir, 'config.capnp'), config(modules, vars, listen));
  const child = spawn(workerdBinary(), ['serve', 'config.capnp', '--verbose'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
    if (echo) process.stdout.write(d);
  });
  child.stderr.on('data', (d) => {
    output += d;
    if (echo) process.stderr.write(d);
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (exited) throw new Error(`workerd exited:\n${output}`);
    try {
      await new Promise((resolve, reject) => {
        const s = net.connect(listen, '127.0.0.1', () => {
          s.destroy();
          resolve();
        });
        s.on('error', reject);
      });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`workerd did not listen within 30 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    port: listen,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

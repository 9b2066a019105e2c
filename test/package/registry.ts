// A registry on the loopback interface that serves the packages installed in this project's
// node_modules, each version packed on first request. npm installs a git dependency by cloning
// it and running `npm install` with its devDependencies before the `prepare` build; this lets
// that nested install run for real without reaching the network.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface LocalRegistry {
  readonly url: string;
  close(): Promise<void>;
}

interface Installed {
  readonly directory: string;
  readonly manifest: Record<string, unknown> & { name: string; version: string };
}

/** Every package directory under `modules`, nested copies included: name to version to it. */
function scan(modules: string, found = new Map<string, Map<string, Installed>>()) {
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@')
      ? readdirSync(join(modules, entry)).map((name) => join(modules, entry, name))
      : [join(modules, entry)];
    for (const directory of dirs) {
      const path = join(directory, 'package.json');
      if (!existsSync(path)) continue;
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Installed['manifest'];
      const versions = found.get(manifest.name) ?? new Map<string, Installed>();
      if (!versions.has(manifest.version)) versions.set(manifest.version, { directory, manifest });
      found.set(manifest.name, versions);
      scan(join(directory, 'node_modules'), found);
    }
  }
  return found;
}

/**
 * The directory as an npm tarball: everything under `package/`, its node_modules left out, not
 * compressed (npm reads plain tar as well, and the nested install unpacks a few hundred MB).
 */
async function tarball(directory: string): Promise<Buffer> {
  const tar = spawn(
    'tar',
    ['-C', directory, '--exclude=./node_modules', '--transform=s,^\\.,package,', '-cf', '-', '.'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of tar.stdout) chunks.push(chunk as Buffer);
  const code = await new Promise<number | null>((resolve) => tar.on('close', resolve));
  if (code !== 0) throw new Error(`tar failed for ${directory}`);
  return Buffer.concat(chunks);
}

export async function startRegistry(modules: string): Promise<LocalRegistry> {
  const installed = scan(modules);
  const packed = new Map<string, Promise<Buffer>>();
  const packOnce = (directory: string) => {
    let promise = packed.get(directory);
    if (promise === undefined) {
      promise = tarball(directory);
      packed.set(directory, promise);
    }
    return promise;
  };
  // Packed ahead, so that resolving a packument never waits for tar.
  for (const versions of installed.values()) {
    for (const { directory } of versions.values()) packOnce(directory);
  }
  let url = '';

  const packument = async (name: string) => {
    const versions = installed.get(name);
    if (versions === undefined) return undefined;
    const entries = await Promise.all(
      [...versions.values()].map(async ({ directory, manifest }) => {
        const bytes = await packOnce(directory);
        const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
        const file = `${url}/-/tarball/${encodeURIComponent(name)}/${manifest.version}.tgz`;
        return [manifest.version, { ...manifest, dist: { tarball: file, integrity } }] as const;
      }),
    );
    const latest = entries.map(([version]) => version).at(-1) ?? '';
    return { name, 'dist-tags': { latest }, versions: Object.fromEntries(entries) };
  };

  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname).slice(1);
    const reply = async (): Promise<void> => {
      const tarballPath = /^-\/tarball\/(.+)\/([^/]+)\.tgz$/.exec(path);
      if (tarballPath !== null) {
        const found = installed.get(tarballPath[1] ?? '')?.get(tarballPath[2] ?? '');
        if (found === undefined) return void response.writeHead(404).end();
        const bytes = await packOnce(found.directory);
        response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
        return;
      }
      const body = await packument(path);
      if (body === undefined) return void response.writeHead(404).end('{}');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    reply().catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

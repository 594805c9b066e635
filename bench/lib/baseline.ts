import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './database.js';

/**
 * `--baseline <git ref>`: the service as built at another commit, measured in the same run as this checkout's on
 * the same database, for an A/B of a change (docs/benchmark.md, "A/B against an earlier commit"). The commit's
 * tracked files are exported (`git archive`: no worktree is registered in the repository) to
 * `.data/bench-baseline/<sha>`, given this checkout's node_modules (a baseline a few commits back has the same
 * dependencies) and built once; later runs reuse the build. Answers the directory to start it from.
 */
export function prepareBaseline(ref: string, log: (line: string) => void): string {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = resolve(ROOT, '.data', 'bench-baseline', sha);
  if (existsSync(join(dir, 'dist', 'apps', 'api', 'src', 'main.js'))) {
    log(`baseline: reusing the build of ${ref} (${sha.slice(0, 12)})`);
    return dir;
  }
  log(`baseline: exporting and building ${ref} (${sha.slice(0, 12)}) in ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', sha], { cwd: ROOT, maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

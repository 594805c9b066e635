import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ROOT } from './database.js';

export interface SeededCounts {
  units: number;
  tenants: number;
  tenantUnits: number;
  landlords: number;
  contractors: number;
  workOrders: number;
}

export interface SeededTeam {
  teamId: string;
  name: string;
  apiKeyId: string;
  /** Plaintext; only its hash is in the database. Bench data only. */
  apiKey: string;
  counts: SeededCounts;
}

/** What `seed:bench` wrote, read by the runner: the keys it needs and what it seeded. */
export interface SeedManifest {
  /** Changes whenever the generator would produce different rows for the same seed. */
  dataVersion: number;
  scale: number;
  seed: number;
  seededAt: string;
  bigTeam: SeededTeam;
  smallTeams: SeededTeam[];
}

export function manifestPath(label: string): string {
  return resolve(ROOT, '.data', `bench-seed-${label}.json`);
}

export function readManifest(label: string): SeedManifest | undefined {
  const path = manifestPath(label);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as SeedManifest;
}

export function writeManifest(label: string, manifest: SeedManifest): string {
  const path = manifestPath(label);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  return path;
}

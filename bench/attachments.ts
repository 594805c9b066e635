// Issue 24's benchmark: uploads of photos against the floor's plain upload route, and the service's memory around
// 10 MiB uploads and downloads. See docs/performance.md, "Attachments".
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Fixtures } from './fixtures.js';
import type { NextRequest } from './lib/load.js';
import { watchPeak, type MeasuredPeak, type PeakSource } from './lib/memory.js';
import { memoryMiB, type ServerUnderTest } from './lib/servers.js';

export const MIB = 1024 * 1024;

/** The targets of issue 24, checked in full runs. */
export const ATTACHMENT_TARGETS = {
  /** Uploads of 1 MiB photos: the service's req/s over the floor's plain upload server's, at least this. */
  uploadRatio: 0.7,
  /** A 10 MiB upload and its download raise the service's peak RSS by less than this many bytes (20 MB). */
  rssRiseBytes: 20_000_000,
} as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A file the service takes for a PNG (its type is decided from the first bytes: the signature and an IHDR chunk),
 * filled up to `size` bytes with a pattern that differs from one file to the next (`seed`), so no two are alike.
 */
export function photo(size: number, seed = 0): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) bytes.writeUInt32LE((Math.imul(i + 1, 2654435761) ^ seed) >>> 0, i);
  PNG_SIGNATURE.copy(bytes, 0);
  // An IHDR chunk's length and type, as a real PNG starts.
  Buffer.from([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(bytes, 8);
  return bytes;
}

const BOUNDARY = '----bench-attachment-7f3a1c9e';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A `multipart/form-data` body with the file in the part `file`, as a browser or `curl -F` sends it. */
export function multipartBody(file: Buffer, fileName = 'photo.png'): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/**
 * Uploads of one 1 MiB photo (the same prebuilt body every time), round robin over the read pool's work orders
 * (`pathOf`: the service's route, or the floor's least-work route). 500 work orders at 100 attachments each hold
 * 50,000 rows; a default run writes about 5,000, removed afterwards (the service's and the least work's rows count,
 * the floor's plain uploads write none). `--duration 120` with `--baseline` may reach the limit (409s fail it).
 */
export function photoUploads(
  fixtures: Fixtures,
  pathOf = (workOrderId: string): string => `/v1/work-orders/${workOrderId}/attachments`,
): () => NextRequest {
  const body = multipartBody(photo(MIB));
  let next = 0;
  return () => ({
    method: 'POST',
    path: pathOf(fixtures.readIds[next++ % fixtures.readIds.length]),
    body,
    headers: { 'content-type': MULTIPART_TYPE },
  });
}

interface Answer {
  status: number;
  body: Buffer;
}

/** One request over a fresh connection, the answer read whole (the bench's own memory is not measured). */
function send(server: ServerUnderTest, apiKey: string, method: string, path: string, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${server.baseUrl}${path}`,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body ? { 'content-type': MULTIPART_TYPE, 'content-length': String(body.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export interface MemoryResult {
  server: ServerUnderTest['name'];
  fileBytes: number;
  roundTrips: number;
  /** VmRSS of the service just before the series, MiB. */
  rssBeforeMiB: number;
  /** The service's peak RSS during the series, MiB: VmHWM after resetting it to VmRSS, or sampled every 5 ms. */
  peakMiB: number;
  /** How the peak was taken. */
  peakFrom: PeakSource;
  riseBytes: number;
  /** The rise after the first round trip of the series alone (VmHWM only). */
  firstRiseBytes?: number;
  /** Every upload answered 201 and every download 200 with the very bytes sent. */
  failures: string[];
}

/**
 * `roundTrips` times in a row, a file of `fileBytes` uploaded to the server and downloaded back (checked byte for
 * byte by SHA-256), with the server's peak RSS over the series against its RSS just before. A small upload and
 * download first runs the path once, so the rise is that of the bytes, not of code first run. Sequential on
 * purpose: the target is about one upload and its download, not about many in parallel.
 */
export async function measureAttachmentMemory(
  server: ServerUnderTest,
  fixtures: Fixtures,
  fileBytes: number,
  roundTrips: number,
): Promise<MemoryResult> {
  const pid = server.process.pid;
  if (pid === undefined) throw new Error(`the ${server.name} has no process id`);
  const workOrderId = fixtures.readIds[0];
  const path = `/v1/work-orders/${workOrderId}/attachments`;
  const failures: string[] = [];
  const roundTrip = async (file: Buffer): Promise<void> => {
    const body = multipartBody(file);
    const uploaded = await send(server, fixtures.apiKey, 'POST', path, body);
    if (uploaded.status !== 201) {
      failures.push(`upload ${uploaded.status}: ${uploaded.body.toString('utf8').slice(0, 200)}`);
      return;
    }
    const { id } = (JSON.parse(uploaded.body.toString('utf8')) as { data: { id: string } }).data;
    const downloaded = await send(server, fixtures.apiKey, 'GET', `${path}/${id}/content`);
    // The floor's plain server stores the request body as it came, multipart framing included.
    const sent = server.name === 'floor' ? body : file;
    const same =
      createHash('sha256').update(downloaded.body).digest('hex') === createHash('sha256').update(sent).digest('hex');
    if (downloaded.status !== 200 || !same) {
      failures.push(
        `download ${downloaded.status}, ${downloaded.body.length} bytes${same ? '' : ', not the bytes sent'}`,
      );
    }
  };
  await roundTrip(photo(64 * 1024, 1));
  // Prepared before the series: the files are the bench's memory, not the service's.
  const files = Array.from({ length: roundTrips }, (_, i) => photo(fileBytes, i + 2));
  await new Promise((settled) => setTimeout(settled, 200));
  const peak = watchPeak(pid, 5);
  let firstPeakMiB: number | undefined;
  let measured: MeasuredPeak;
  try {
    for (const file of files) {
      await roundTrip(file);
      if (peak.peakFrom === 'VmHWM' && firstPeakMiB === undefined) firstPeakMiB = memoryMiB(pid, 'VmHWM');
    }
  } finally {
    measured = peak.stop();
  }
  const { rssBeforeMiB } = peak;
  const { peakMiB, peakFrom } = measured;
  return {
    server: server.name,
    fileBytes,
    roundTrips,
    rssBeforeMiB,
    peakMiB,
    peakFrom,
    riseBytes: Math.max(0, (peakMiB - rssBeforeMiB) * MIB),
    firstRiseBytes: firstPeakMiB === undefined ? undefined : Math.max(0, (firstPeakMiB - rssBeforeMiB) * MIB),
    failures,
  };
}

/** One line for the report. */
export function describeMemory(result: MemoryResult): string {
  const mb = (result.riseBytes / 1e6).toFixed(1);
  return (
    `Attachments, ${result.roundTrips} × (${(result.fileBytes / MIB).toFixed(0)} MiB upload + its download), one at a ` +
    `time: the ${result.server}'s RSS ${result.rssBeforeMiB.toFixed(1)} MiB before, peak ${result.peakMiB.toFixed(1)} MiB ` +
    `(${result.peakFrom}), a rise of ${mb} MB` +
    (result.firstRiseBytes === undefined ? '' : ` (${(result.firstRiseBytes / 1e6).toFixed(1)} MB after the first)`) +
    (result.failures.length > 0 ? `; FAILURES: ${result.failures.join('; ')}` : '')
  );
}

// pg-copy-streams ships no type declarations; these cover only what the seed uses.
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';
  import type { Submittable } from 'pg';

  /** A COPY … FROM STDIN statement as a writable stream of its data; it finishes once PostgreSQL has the rows. */
  export interface CopyStreamQuery extends Writable, Submittable {
    /** The rows PostgreSQL reported (`COPY n`), once finished. */
    rowCount: number;
  }

  export function from(text: string): CopyStreamQuery;
}

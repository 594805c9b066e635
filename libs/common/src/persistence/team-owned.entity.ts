import { Column, PrimaryColumn } from 'typeorm';

/** The columns every resource's table starts with: the team leads the key, and the database keeps the times. */
export abstract class TeamOwnedEntity {
  @PrimaryColumn({ name: 'team_id', type: 'uuid' })
  teamId!: string;

  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, insert: false })
  updatedAt!: Date;
}

/**
 * A resource's entity: `TeamOwnedEntity` and the integrator's own id for the record (`externalRef`, stored in
 * `external_ref`), unique per team in the table. The repository of such an entity reads the column, filters its
 * lists by it and answers a duplicate with a 409 (`TeamScopedRepository`); the table needs the unique index
 * `<table>_external_ref_key` on `(team_id, external_ref) WHERE external_ref IS NOT NULL`.
 */
export abstract class ExternallyReferencedEntity extends TeamOwnedEntity {
  @Column({ name: 'external_ref', type: 'text', nullable: true })
  externalRef!: string | null;
}

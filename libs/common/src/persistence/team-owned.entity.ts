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

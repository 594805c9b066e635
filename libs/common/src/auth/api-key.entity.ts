import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Only the SHA-256 of a key is stored; the plaintext is shown once, when it is created. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ name: 'team_id', type: 'uuid' })
  teamId!: string;

  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
  id!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { type KeyAccess } from '@app/common';

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

  /** The key's first 12 characters (`ppk_` and 8 more), to tell keys apart; null for keys made before it was kept. */
  @Column({ type: 'text', nullable: true })
  prefix!: string | null;

  @Column({ type: 'text', default: 'read_write' })
  access!: KeyAccess;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt!: Date | null;

  /** The key stops working at this time: its expiry, or the end of the grace period after a roll. */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3, nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;

  /** The key that replaced this one when it was rolled. */
  @Column({ name: 'replaced_by', type: 'uuid', nullable: true })
  replacedBy!: string | null;
}

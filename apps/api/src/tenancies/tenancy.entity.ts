import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenancy: the link between a tenant and a unit; the same `id` is shown from both sides. */
@Entity('tenant_units')
export class Tenancy {
  @PrimaryColumn({ name: 'team_id', type: 'uuid' })
  teamId!: string;

  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'unit_id', type: 'uuid' })
  unitId!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, insert: false, update: false })
  createdAt!: Date;
}

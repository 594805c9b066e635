import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('teams')
export class Team {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Last work order number handed out; bumped in the same transaction as the insert, so codes have no gaps. */
  @Column({ name: 'last_work_order_number', type: 'integer', default: 0 })
  lastWorkOrderNumber!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}

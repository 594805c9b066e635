import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkOrderNote } from './notes/work-order-note.entity.js';
import { WorkOrderNotesController } from './notes/work-order-notes.controller.js';
import { WorkOrderNotesRepository } from './notes/work-order-notes.repository.js';
import { WorkOrderNotesService } from './notes/work-order-notes.service.js';
import { WorkOrder } from './work-order.entity.js';
import { WorkOrdersController } from './work-orders.controller.js';
import { WorkOrdersRepository } from './work-orders.repository.js';
import { WorkOrdersService } from './work-orders.service.js';

@Module({
  // unitId, tenantId and contractorId are checked by foreign keys on (team_id, id): another team's is missing.
  imports: [TypeOrmModule.forFeature([WorkOrder, WorkOrderNote])],
  // The work orders' own routes first: their collection path is the resource's (test/support/resources.ts). A
  // note lives under its work order, so its controller is here and its events (`work_order_note.*`) derive from
  // this module's entry in resources.ts like the work order's.
  controllers: [WorkOrdersController, WorkOrderNotesController],
  providers: [WorkOrdersService, WorkOrdersRepository, WorkOrderNotesService, WorkOrderNotesRepository],
  exports: [WorkOrdersService],
})
export class WorkOrdersModule {}

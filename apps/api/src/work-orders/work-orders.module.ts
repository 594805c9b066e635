import { Module } from '@nestjs/common';
import { AppConfig } from '@app/common';
import { AttachmentExamples } from './attachments/attachment-examples.js';
import { AttachmentDownloadsController } from './attachments/attachment-downloads.controller.js';
import { WorkOrderAttachment } from './attachments/attachment.entity.js';
import { AttachmentUploads } from './attachments/attachment-uploads.js';
import { AttachmentsCleanup } from './attachments/attachments.cleanup.js';
import { AttachmentsController } from './attachments/attachments.controller.js';
import { AttachmentsRepository } from './attachments/attachments.repository.js';
import { AttachmentsService } from './attachments/attachments.service.js';
import { DownloadUrls } from './attachments/download-urls.js';
import { ReceiveUploadGuard } from './attachments/receive-upload.guard.js';
import { AttachmentObjectsRepository } from './attachments/storage/attachment-objects.repository.js';
import { ObjectStorage } from './attachments/storage/object-storage.js';
import { storageDriverOf } from './attachments/storage/storage-driver.js';
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
  imports: [TypeOrmModule.forFeature([WorkOrder, WorkOrderNote, WorkOrderAttachment])],
  // The work orders' own routes first: their collection path is the resource's (test/support/resources.ts). A
  // note lives under its work order, so its controller is here and its events (`work_order_note.*`) derive from
  // this module's entry in resources.ts like the work order's.
  controllers: [WorkOrdersController, WorkOrderNotesController, AttachmentsController, AttachmentDownloadsController],
  providers: [
    WorkOrdersService,
    WorkOrdersRepository,
    WorkOrderNotesService,
    WorkOrderNotesRepository,
    AttachmentsService,
    AttachmentExamples,
    AttachmentUploads,
    ReceiveUploadGuard,
    AttachmentsRepository,
    AttachmentObjectsRepository,
    AttachmentsCleanup,
    DownloadUrls,
    // STORAGE_DRIVER picks the driver: `local` (files in a folder) or `s3` (a bucket).
    { provide: ObjectStorage, useFactory: storageDriverOf, inject: [AppConfig] },
  ],
  exports: [WorkOrdersService, AttachmentsCleanup, ObjectStorage],
})
export class WorkOrdersModule {}

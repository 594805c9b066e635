import type { Actor } from '@app/common';
import { AnnouncedWrites } from '../announced-writes.js';
import { ContractorsService, CreateContractorDto } from '../contractors/index.js';
import { CreateLandlordDto, LandlordsService } from '../landlords/index.js';
import { CreateTenantDto, TenantsService } from '../tenants/index.js';
import { CreateUnitDto, UnitsService } from '../units/index.js';
import {
  CreateNoteDto,
  CreateWorkOrderDto,
  UpdateWorkOrderDto,
  WorkOrderNotesService,
  WorkOrdersService,
} from '../work-orders/index.js';
import type { SandboxRecordCounts } from './dto/sandbox-reset.response.js';
import { samplePortfolio } from './sample-portfolio.js';

export type KeyActor = Extract<Actor, { type: 'api_key' }>;

/**
 * Writes the sample portfolio into a team through the resources' own services, each body validated as a request's
 * and each change announced (events, history, webhook deliveries), as if `author` had sent the requests: landlords,
 * contractors, units, tenants (linked to their units), then work orders moved through their statuses, with notes.
 */
export async function loadSamplePortfolio(writes: AnnouncedWrites, author: KeyActor): Promise<SandboxRecordCounts> {
  const sample = samplePortfolio();
  const teamId = writes.teamId;
  const createAll = async <T extends object>(
    bodies: object[],
    dto: new () => T,
    service: { create(teamId: string, dto: T): Promise<{ id: string }> },
    announcer: new (...args: never[]) => unknown,
  ): Promise<string[]> => {
    const ids: string[] = [];
    for (const body of bodies) {
      const valid = await writes.body(body, dto);
      ids.push((await writes.created(announcer, () => service.create(teamId, valid), author)).id);
    }
    return ids;
  };

  const landlords = await createAll(
    sample.landlords,
    CreateLandlordDto,
    writes.service(LandlordsService),
    LandlordsService,
  );
  const contractors = await createAll(
    sample.contractors,
    CreateContractorDto,
    writes.service(ContractorsService),
    ContractorsService,
  );
  const units = await createAll(sample.units, CreateUnitDto, writes.service(UnitsService), UnitsService);
  const tenants = await createAll(
    sample.tenants.map(({ body, units: linked }) => ({ ...body, unitIds: linked.map((index) => units[index]) })),
    CreateTenantDto,
    writes.service(TenantsService),
    TenantsService,
  );

  const workOrders = writes.service(WorkOrdersService);
  const notes = writes.service(WorkOrderNotesService);
  let noteCount = 0;
  for (const order of sample.workOrders) {
    const body = await writes.body(
      {
        ...order.body,
        unitId: units[order.unit],
        tenantId: order.tenant === null ? null : tenants[order.tenant],
        contractorId: order.contractor === null ? null : contractors[order.contractor],
      },
      CreateWorkOrderDto,
    );
    let current: object & { id: string } = await writes.created(
      WorkOrdersService,
      () => workOrders.create(teamId, body),
      author,
    );
    const id = current.id;
    for (const [step, status] of order.statuses.entries()) {
      if (step > 0) {
        const change = await writes.body({ status }, UpdateWorkOrderDto);
        const before = current;
        current = await writes.updated(WorkOrdersService, before, () => workOrders.update(teamId, id, change), author);
      }
      const text = order.notes[step];
      if (text === undefined) continue;
      const note = await writes.body({ text }, CreateNoteDto);
      await writes.created(WorkOrderNotesService, () => notes.create(teamId, id, note, author), author, id);
      noteCount++;
    }
  }
  return {
    landlords: landlords.length,
    contractors: contractors.length,
    units: units.length,
    tenants: tenants.length,
    workOrders: sample.workOrders.length,
    workOrderNotes: noteCount,
  };
}

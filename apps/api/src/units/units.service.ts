import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  pageOf,
  presentFields,
  RecordNotFoundError,
  Transactions,
  type ConditionalSource,
  type Page,
} from '@app/common';
import { WorkOrdersService } from '../work-orders/index.js';
import type { CreateUnitDto } from './dto/create-unit.dto.js';
import type { ListUnitsQuery } from './dto/list-units.query.js';
import { UnitResponse } from './dto/unit.response.js';
import type { UpdateUnitDto } from './dto/update-unit.dto.js';
import { ADDRESS_PARTS, composeFullAddress, type AddressParts } from './full-address.js';
import type { Unit } from './unit.entity.js';
import { UnitsRepository } from './units.repository.js';

/** What a new unit holds where the body is silent. */
const DEFAULTS = { addressLine2: null, county: null, area: null } as const;

/** The fields a body writes as given, beside the address parts (which make `fullAddress`). */
const PLAIN_FIELDS = ['externalRef'] as const;

function withFullAddress(parts: AddressParts): AddressParts & Pick<Unit, 'fullAddress'> {
  return { ...parts, fullAddress: composeFullAddress(parts) };
}

@Injectable()
export class UnitsService implements ConditionalSource {
  constructor(
    private readonly transactions: Transactions,
    private readonly units: UnitsRepository,
    private readonly workOrders: WorkOrdersService,
  ) {}

  /** `id` is chosen only for the demo team's example record (apps/api/src/demo-records.ts). */
  async create(teamId: string, dto: CreateUnitDto, id: string = randomUUID()): Promise<UnitResponse> {
    const parts = { ...DEFAULTS, ...presentFields(dto, ADDRESS_PARTS) } as AddressParts;
    const plain = { externalRef: null, ...presentFields(dto, PLAIN_FIELDS) };
    await this.units.insert(teamId, { ...withFullAddress(parts), ...plain, id } as Omit<Unit, 'teamId'>);
    return this.get(teamId, id);
  }

  async list(teamId: string, query: ListUnitsQuery): Promise<Page<UnitResponse>> {
    const [rows, total] = await this.units.list(teamId, query);
    return pageOf(rows.map(UnitResponse.from), total, query);
  }

  async get(teamId: string, id: string): Promise<UnitResponse> {
    const row = await this.units.findOne(teamId, id);
    if (!row) throw new RecordNotFoundError('Unit');
    return UnitResponse.from(row);
  }

  lock(teamId: string, id: string): Promise<boolean> {
    return this.units.lock(teamId, id);
  }

  /** GET one's answer with the row locked (`FOR UPDATE`), in one statement: a PUT's `previousAttributes`. */
  async getLocked(teamId: string, id: string): Promise<UnitResponse | undefined> {
    const row = await this.units.findOne(teamId, id, { lock: 'FOR UPDATE' });
    return row && UnitResponse.from(row);
  }

  /** Refused while work orders refer to the unit; its tenant links go with it (the foreign key cascades). */
  async remove(teamId: string, id: string): Promise<void> {
    const check = (): Promise<void> => this.workOrders.refuseIfReferenced(teamId, 'unitId', id, 'Unit');
    if (!(await this.units.deleteChecked(teamId, id, check))) throw new RecordNotFoundError('Unit');
  }

  /** Merges the body into the stored parts (under the row's lock) and recomputes `fullAddress` from the result. */
  async update(teamId: string, id: string, dto: UpdateUnitDto): Promise<UnitResponse> {
    await this.transactions.run(async (manager) => {
      // FOR NO KEY UPDATE (the key never changes) leaves links to the unit free to be added meanwhile.
      const stored = await this.units.findOne(teamId, id, { manager, lock: 'FOR NO KEY UPDATE' });
      if (!stored) throw new RecordNotFoundError('Unit');
      const parts = { ...presentFields(stored, ADDRESS_PARTS), ...presentFields(dto, ADDRESS_PARTS) } as AddressParts;
      await this.units.update(teamId, id, { ...withFullAddress(parts), ...presentFields(dto, PLAIN_FIELDS) }, manager);
    });
    return this.get(teamId, id);
  }
}

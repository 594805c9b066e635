import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { pageOf, presentFields, RecordNotFoundError, type ConditionalSource, type Page } from '@app/common';
import type { CreateLandlordDto } from './dto/create-landlord.dto.js';
import { LandlordResponse } from './dto/landlord.response.js';
import type { ListLandlordsQuery } from './dto/list-landlords.query.js';
import type { UpdateLandlordDto } from './dto/update-landlord.dto.js';
import type { Landlord } from './landlord.entity.js';
import { LandlordsRepository } from './landlords.repository.js';

/** Everything a body may write; the rest of the record belongs to the server. */
const WRITABLE_FIELDS = ['externalRef', 'name', 'email', 'phoneNumber', 'fullAddress', 'status', 'notes'] as const;

/** What a new landlord holds where the body is silent. */
const DEFAULTS = {
  externalRef: null,
  email: null,
  phoneNumber: null,
  fullAddress: null,
  status: 'active',
  notes: null,
} as const;

@Injectable()
export class LandlordsService implements ConditionalSource {
  constructor(private readonly landlords: LandlordsRepository) {}

  /** `id` is chosen only for the demo team's example record (apps/api/src/demo-records.ts). */
  async create(teamId: string, dto: CreateLandlordDto, id: string = randomUUID()): Promise<LandlordResponse> {
    const landlord = { ...DEFAULTS, ...presentFields(dto, WRITABLE_FIELDS), id } as Omit<Landlord, 'teamId'>;
    await this.landlords.insert(teamId, landlord);
    return this.get(teamId, id);
  }

  async list(teamId: string, query: ListLandlordsQuery): Promise<Page<LandlordResponse>> {
    const [rows, total] = await this.landlords.list(teamId, query);
    return pageOf(rows.map(LandlordResponse.from), total, query);
  }

  async get(teamId: string, id: string): Promise<LandlordResponse> {
    const row = await this.landlords.findOne(teamId, id);
    if (!row) throw new RecordNotFoundError('Landlord');
    return LandlordResponse.from(row);
  }

  lock(teamId: string, id: string): Promise<boolean> {
    return this.landlords.lock(teamId, id);
  }

  /** GET one's answer with the row locked (`FOR UPDATE`), in one statement: a PUT's `previousAttributes`. */
  async getLocked(teamId: string, id: string): Promise<LandlordResponse | undefined> {
    const row = await this.landlords.findOne(teamId, id, { lock: 'FOR UPDATE' });
    return row && LandlordResponse.from(row);
  }

  async remove(teamId: string, id: string): Promise<void> {
    if (!(await this.landlords.delete(teamId, id))) throw new RecordNotFoundError('Landlord');
  }

  async update(teamId: string, id: string, dto: UpdateLandlordDto): Promise<LandlordResponse> {
    const updated = await this.landlords.update(teamId, id, presentFields(dto, WRITABLE_FIELDS));
    if (!updated) throw new RecordNotFoundError('Landlord');
    return this.get(teamId, id);
  }
}
